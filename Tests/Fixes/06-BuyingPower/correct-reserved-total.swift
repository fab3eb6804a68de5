// Keeps the balance as it is and counts what open orders have reserved against it.
import Services

public actor BuyingPower {
  private var balance: Int
  private var reserved = 0
  private let exchange: any Exchange

  public var available: Int { balance - reserved }

  public init(available: Int, exchange: any Exchange) {
    self.balance = available
    self.exchange = exchange
  }

  public func place(_ order: Order) async throws -> OrderConfirmation {
    guard order.cost <= available else {
      throw InsufficientBuyingPower(needed: order.cost, available: available)
    }
    reserved += order.cost
    do {
      let confirmation = try await exchange.submit(order)
      reserved -= order.cost
      balance -= order.cost
      return confirmation
    } catch let rejection as OrderRejected {
      reserved -= order.cost
      throw rejection
    }
  }
}

public struct InsufficientBuyingPower: Error, Equatable {
  public let needed: Int
  public let available: Int
}
