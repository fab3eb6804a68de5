// Expected to fail: Orders the account can afford go to the exchange at the same time
// Keeps the balance right by letting only one order out at a time.
import Services

public actor BuyingPower {
  public private(set) var available: Int
  private var previous: Task<Void, Never>?
  private let exchange: any Exchange

  public init(available: Int, exchange: any Exchange) {
    self.available = available
    self.exchange = exchange
  }

  public func place(_ order: Order) async throws -> OrderConfirmation {
    let before = previous
    let turn = Task<OrderConfirmation, any Error> {
      await before?.value
      guard order.cost <= available else {
        throw InsufficientBuyingPower(needed: order.cost, available: available)
      }
      let confirmation = try await exchange.submit(order)
      available -= order.cost
      return confirmation
    }
    previous = Task { _ = try? await turn.value }
    return try await turn.value
  }
}

public struct InsufficientBuyingPower: Error, Equatable {
  public let needed: Int
  public let available: Int
}
