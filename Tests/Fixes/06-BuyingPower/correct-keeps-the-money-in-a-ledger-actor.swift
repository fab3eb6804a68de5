// Keeps the money in a ledger actor of its own, which checks and reserves in one call; the account
// reads `available` from the ledger, so a check of the promise has to wait for it.
import Services

/// The account's money: one actor, so that checking and reserving cannot be split.
actor Ledger {
  private(set) var available: Int

  init(available: Int) {
    self.available = available
  }

  func reserve(_ cost: Int) throws {
    guard cost <= available else {
      throw InsufficientBuyingPower(needed: cost, available: available)
    }
    available -= cost
  }

  func giveBack(_ cost: Int) {
    available += cost
  }
}

/// The money a trading account can still spend, and the one place that lets orders spend it.
public actor BuyingPower {
  private let ledger: Ledger
  private let exchange: any Exchange

  /// Cents that new orders may still use.
  public var available: Int {
    get async { await ledger.available }
  }

  public init(available: Int, exchange: any Exchange) {
    self.ledger = Ledger(available: available)
    self.exchange = exchange
  }

  /// Sends `order` to the exchange if the account can pay for it, and charges the account once the
  /// exchange accepts it.
  public func place(_ order: Order) async throws -> OrderConfirmation {
    try await ledger.reserve(order.cost)
    do {
      return try await exchange.submit(order)
    } catch let rejection as OrderRejected {
      await ledger.giveBack(order.cost)
      throw rejection
    }
  }
}

/// An order that costs more than the account can spend.
public struct InsufficientBuyingPower: Error, Equatable {
  public let needed: Int
  public let available: Int
}
