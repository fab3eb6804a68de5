// Expected to fail: Three orders, in every order, one answer at most rejected or lost, never overspend
// Keeps the orders still open in a set and counts what they hold against the balance: two equal
// orders open at once are one element of the set, and hold the money of one.
import Services

public actor BuyingPower {
  private var balance: Int
  /// Orders at the exchange, or whose answer was lost.
  private var open: Set<Order> = []
  private let exchange: any Exchange

  public var available: Int {
    balance - open.reduce(0) { $0 + $1.cost }
  }

  public init(available: Int, exchange: any Exchange) {
    self.balance = available
    self.exchange = exchange
  }

  public func place(_ order: Order) async throws -> OrderConfirmation {
    guard order.cost <= available else {
      throw InsufficientBuyingPower(needed: order.cost, available: available)
    }
    open.insert(order)
    do {
      let confirmation = try await exchange.submit(order)
      open.remove(order)
      balance -= order.cost
      return confirmation
    } catch let rejection as OrderRejected {
      open.remove(order)
      throw rejection
    }
  }
}

public struct InsufficientBuyingPower: Error, Equatable {
  public let needed: Int
  public let available: Int
}
