// Expected to fail: An order whose caller is cancelled still counts against the balance
// Gives the money back when the exchange's client throws URLError(.cancelled), as if the
// order had been refused: the caller's cancellation did not take it back from the exchange.
import Foundation
import Services

/// The money a trading account can still spend, and the one place that lets orders spend it.
public actor BuyingPower {
  /// Cents that new orders may still use.
  public private(set) var available: Int
  private let exchange: any Exchange

  public init(available: Int, exchange: any Exchange) {
    self.available = available
    self.exchange = exchange
  }

  /// Sends `order` to the exchange if the account can pay for it, and charges the account once the
  /// exchange accepts it.
  public func place(_ order: Order) async throws -> OrderConfirmation {
    guard order.cost <= available else {
      throw InsufficientBuyingPower(needed: order.cost, available: available)
    }
    // Reserve the money before suspending: an order placed while this one is at the exchange
    // must see what is really left.
    available -= order.cost
    do {
      return try await exchange.submit(order)
    } catch let rejection as OrderRejected {
      // The exchange turned the order down, so nothing was spent. Any other error (a timeout, a
      // lost connection, a cancelled caller) leaves the order's fate unknown: the exchange may
      // still fill it, so the money stays reserved.
      available += order.cost
      throw rejection
    } catch let error as URLError where error.code == .cancelled {
      // The request was cancelled before the exchange answered: the order never went through,
      // so its money is free again.
      available += order.cost
      throw error
    }
  }
}

/// An order that costs more than the account can spend.
public struct InsufficientBuyingPower: Error, Equatable {
  public let needed: Int
  public let available: Int
}
