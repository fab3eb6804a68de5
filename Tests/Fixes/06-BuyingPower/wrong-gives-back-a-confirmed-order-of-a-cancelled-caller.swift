// Expected to fail: An order the exchange accepts keeps its money, though its caller was cancelled
// Reserves before the await and gives the money back on a rejection, and also when its caller was
// cancelled by the time a confirmation came: but a confirmed order is filled, and its money spent.
import Services

public actor BuyingPower {
  public private(set) var available: Int
  private let exchange: any Exchange
  public init(available: Int, exchange: any Exchange) {
    self.available = available
    self.exchange = exchange
  }
  public func place(_ order: Order) async throws -> OrderConfirmation {
    guard order.cost <= available else {
      throw InsufficientBuyingPower(needed: order.cost, available: available)
    }
    available -= order.cost
    let c: OrderConfirmation
    do {
      c = try await exchange.submit(order)
    } catch let error as OrderRejected {
      available += order.cost
      throw error
    }
    if Task.isCancelled {
      available += order.cost
      throw CancellationError()
    }
    return c
  }
}

public struct InsufficientBuyingPower: Error, Equatable {
  public let needed: Int
  public let available: Int
}
