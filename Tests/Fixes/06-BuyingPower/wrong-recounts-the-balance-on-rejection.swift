// Expected to fail: Orders whose answers were lost keep their money when another order is then rejected
// Works the balance out again from its list of open orders when one is rejected; an order whose
// answer was lost has left that list, so its money comes back with the next rejection.
import Services

public actor BuyingPower {
  public private(set) var available: Int
  private let start: Int
  private var accepted = 0
  private var open: [Int: Int] = [:]
  private var nextTicket = 0
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
      // Recompute from the ledger rather than adding back, so rounding or a missed update cannot drift.
      available = start - accepted - open.values.reduce(0, +)
      throw rejection
    } catch {
      // The answer was lost: the order is no longer open, and its money stays taken.
      open[ticket] = nil
      throw error
    }
  }
}

public struct InsufficientBuyingPower: Error, Equatable {
  public let needed: Int
  public let available: Int
}
