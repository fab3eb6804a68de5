// Expected to fail: An order that costs a cent more than the account holds is refused
// Compares the order with the balance in whole dollars, as the screen shows them: an order of
// $100.02 passes against $100.00, and the account is left owing two cents.
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
    // Prices are shown in whole dollars, and so is the check.
    guard order.cost / 100 <= available / 100 else {
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
    }
  }
}

/// An order that costs more than the account can spend.
public struct InsufficientBuyingPower: Error, Equatable {
  public let needed: Int
  public let available: Int
}
