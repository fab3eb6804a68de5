// Expected to fail: Two orders that together cost more than the account holds cannot both go through
// Checks the balance again after the exchange answered, when the order has already been placed.
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
    let confirmation = try await exchange.submit(order)
    guard order.cost <= available else {
      throw InsufficientBuyingPower(needed: order.cost, available: available)
    }
    available -= order.cost
    return confirmation
  }
}

public struct InsufficientBuyingPower: Error, Equatable {
  public let needed: Int
  public let available: Int
}
