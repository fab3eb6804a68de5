// Expected to fail: A rejected order gives its money back
// Reserves before the `await`, but keeps the money when the exchange says no.
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
    return try await exchange.submit(order)
  }
}

public struct InsufficientBuyingPower: Error, Equatable {
  public let needed: Int
  public let available: Int
}
