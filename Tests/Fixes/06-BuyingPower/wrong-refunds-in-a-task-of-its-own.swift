// Expected to fail: A caller who has heard of its rejection finds its money back
// Gives a rejected order's money back from a Task of its own, so the caller hears of the
// rejection before its money is back, and an order it places at once is refused.
import Services

public actor BuyingPower {
  public private(set) var available: Int
  private let exchange: any Exchange

  public init(available: Int, exchange: any Exchange) {
    self.available = available
    self.exchange = exchange
  }

  private func refund(_ cents: Int) { available += cents }

  private nonisolated func send(_ order: Order) async throws -> OrderConfirmation {
    do {
      return try await exchange.submit(order)
    } catch let rejection as OrderRejected {
      Task { await self.refund(order.cost) }
      throw rejection
    }
  }

  public func place(_ order: Order) async throws -> OrderConfirmation {
    guard order.cost <= available else {
      throw InsufficientBuyingPower(needed: order.cost, available: available)
    }
    available -= order.cost
    return try await send(order)
  }
}

public struct InsufficientBuyingPower: Error, Equatable {
  public let needed: Int
  public let available: Int
}
