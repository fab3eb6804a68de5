// Expected to fail: Two equal orders that are both rejected both give their money back
// Remembers what it holds per order, keyed by the order itself, so two equal orders share one
// entry: when both are rejected, only one gets its money back.
import Services

public actor BuyingPower {
  public private(set) var available: Int
  private let exchange: any Exchange

  public init(available: Int, exchange: any Exchange) {
    self.available = available
    self.exchange = exchange
  }

  private var held: [Order: Int] = [:]

  public func place(_ order: Order) async throws -> OrderConfirmation {
    guard order.cost <= available else {
      throw InsufficientBuyingPower(needed: order.cost, available: available)
    }
    available -= order.cost
    held[order] = order.cost
    do {
      return try await exchange.submit(order)
    } catch let rejection as OrderRejected {
      if let money = held.removeValue(forKey: order) { available += money }
      throw rejection
    }
  }
}

public struct InsufficientBuyingPower: Error, Equatable {
  public let needed: Int
  public let available: Int
}
