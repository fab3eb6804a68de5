// Expected to fail: The same order rejected twice, one after the other, gives its money back each time
// Guards against a double refund with a set of the orders refunded, keyed by the order itself:
// the same order placed again and rejected again gets nothing back.
import Services

public actor BuyingPower {
  public private(set) var available: Int
  private let exchange: any Exchange

  public init(available: Int, exchange: any Exchange) {
    self.available = available
    self.exchange = exchange
  }

  private var refunded: Set<Order> = []

  public func place(_ order: Order) async throws -> OrderConfirmation {
    guard order.cost <= available else {
      throw InsufficientBuyingPower(needed: order.cost, available: available)
    }
    available -= order.cost
    do {
      return try await exchange.submit(order)
    } catch let rejection as OrderRejected {
      if refunded.insert(order).inserted { available += order.cost }
      throw rejection
    }
  }
}

public struct InsufficientBuyingPower: Error, Equatable {
  public let needed: Int
  public let available: Int
}
