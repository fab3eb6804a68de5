// Expected to fail: Three orders, in every order, one answer at most rejected or lost, never overspend
// Gives the money back on a rejection and also on a timeout or a lost connection, as if such an
// order had never got through; the exchange may still have accepted it and may fill it.
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

  public func place(_ order: Order) async throws -> OrderConfirmation {
    guard order.cost <= available else {
      throw InsufficientBuyingPower(needed: order.cost, available: available)
    }
    available -= order.cost
    do {
      return try await exchange.submit(order)
    } catch let rejection as OrderRejected {
      available += order.cost
      throw rejection
    } catch let failure as URLError
      where [.timedOut, .notConnectedToInternet, .cannotConnectToHost].contains(failure.code)
    {
      // The request never got through to the exchange, so the order cannot be filled.
      available += order.cost
      throw failure
    }
  }
}

/// An order that costs more than the account can spend.
public struct InsufficientBuyingPower: Error, Equatable {
  public let needed: Int
  public let available: Int
}
