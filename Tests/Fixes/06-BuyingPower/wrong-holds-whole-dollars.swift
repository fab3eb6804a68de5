// Expected to fail: An order that costs what the account holds, to the cent, fits
// Holds an open order's cost rounded up to whole dollars, to be safe, so an order of $99.99 is
// refused when $99.99 is available.
import Services

public actor BuyingPower {
  public private(set) var available: Int
  private let exchange: any Exchange

  public init(available: Int, exchange: any Exchange) {
    self.available = available
    self.exchange = exchange
  }

  public func place(_ order: Order) async throws -> OrderConfirmation {
    let hold = (order.cost + 99) / 100 * 100
    guard hold <= available else {
      throw InsufficientBuyingPower(needed: order.cost, available: available)
    }
    available -= hold
    do {
      let confirmation = try await exchange.submit(order)
      available += hold - order.cost
      return confirmation
    } catch let rejection as OrderRejected {
      available += hold
      throw rejection
    }
  }
}

public struct InsufficientBuyingPower: Error, Equatable {
  public let needed: Int
  public let available: Int
}
