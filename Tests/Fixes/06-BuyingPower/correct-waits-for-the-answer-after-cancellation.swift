// Waits for the exchange's answer in a task of its own, so that a caller's cancellation does not
// end the wait: the account always learns the order's fate, and gives the money back only on a
// rejection. The promise asks nothing of when a cancelled caller returns.
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
    let exchange = self.exchange
    let submission = Task { try await exchange.submit(order) }
    do {
      return try await submission.value
    } catch let error as OrderRejected {
      available += order.cost
      throw error
    }
  }
}

public struct InsufficientBuyingPower: Error, Equatable {
  public let needed: Int
  public let available: Int
}
