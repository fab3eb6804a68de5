// Expected to fail: Orders whose answers were lost keep their money when another order is then rejected
// Works the balance out again when an order is rejected, and counts the orders whose answers were
// lost in it, but keeps those in a set of orders: two equal lost orders count once, and the next
// rejection frees the money of one of them.
import Services

public actor BuyingPower {
  public private(set) var available: Int
  private let start: Int
  private var accepted = 0
  private var open: [Int: Int] = [:]
  private var nextTicket = 0
  private var lost: Set<Order> = []
  private let exchange: any Exchange

  public init(available: Int, exchange: any Exchange) {
    self.available = available
    self.start = available
    self.exchange = exchange
  }

  public func place(_ order: Order) async throws -> OrderConfirmation {
    guard order.cost <= available else {
      throw InsufficientBuyingPower(needed: order.cost, available: available)
    }
    nextTicket += 1
    let ticket = nextTicket
    open[ticket] = order.cost
    available -= order.cost
    do {
      let confirmation = try await exchange.submit(order)
      open[ticket] = nil
      accepted += order.cost
      return confirmation
    } catch let rejection as OrderRejected {
      open[ticket] = nil
      // Recompute from the ledger rather than adding back, so that a missed update cannot drift.
      let unknown = lost.reduce(0) { $0 + $1.cost }
      available = start - accepted - open.values.reduce(0, +) - unknown
      throw rejection
    } catch {
      // The answer was lost: the exchange may still fill the order, so it stays on the books.
      open[ticket] = nil
      lost.insert(order)
      throw error
    }
  }
}

public struct InsufficientBuyingPower: Error, Equatable {
  public let needed: Int
  public let available: Int
}
