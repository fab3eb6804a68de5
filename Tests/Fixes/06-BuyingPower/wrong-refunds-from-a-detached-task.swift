// Expected to fail: A caller who has heard of its rejection finds its money back
// Gives a rejected order's money back from a detached task, so that the caller hears of the
// rejection at once. The task comes back to the account whenever the runtime gets to it: a caller
// that places its order again the moment it has heard may find the money still gone.
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
      // The caller need not wait for the bookkeeping: it learns of the rejection at once.
      let cost = order.cost
      Task.detached { await self.giveBack(cost) }
      throw rejection
    }
  }
}

extension BuyingPower {
  fileprivate func giveBack(_ cost: Int) {
    available += cost
  }
}

/// An order that costs more than the account can spend.
public struct InsufficientBuyingPower: Error, Equatable {
  public let needed: Int
  public let available: Int
}
