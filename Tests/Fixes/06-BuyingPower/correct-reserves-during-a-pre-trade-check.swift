// Reserves the money first, then checks the order away from the account before it sends it: an
// order placed during the check is measured against what is left after the reservation.
import Foundation
import Services

/// A check of an order's fields that takes a moment, such as a risk rule read from disk.
@concurrent
private func preTradeCheck(_ order: Order) async -> Bool {
  !order.symbol.isEmpty && order.quantity > 0 && URL(string: "order:\(order.symbol)") != nil
}

public actor BuyingPower {
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
    guard await preTradeCheck(order) else {
      available += order.cost
      throw OrderRejected(reason: "failed the pre-trade check")
    }
    do {
      return try await exchange.submit(order)
    } catch let rejection as OrderRejected {
      available += order.cost
      throw rejection
    }
  }
}

public struct InsufficientBuyingPower: Error, Equatable {
  public let needed: Int
  public let available: Int
}
