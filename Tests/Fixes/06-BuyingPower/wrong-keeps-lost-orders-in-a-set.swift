// Expected to fail: Two equal orders whose answers were both lost both count against the balance
// Keeps open orders by a number of their own, but moves an order whose answer was lost into a set
// of orders: two equal orders whose answers were both lost are held once.
import Services

public actor BuyingPower {
  private let balance: Int
  private var spent = 0
  private var open: [Int: Int] = [:]
  private var unknownFate: Set<Order> = []
  private var nextID = 0
  public var available: Int {
    balance - spent - open.values.reduce(0, +) - unknownFate.reduce(0) { $0 + $1.cost }
  }
  private let exchange: any Exchange
  public init(available: Int, exchange: any Exchange) {
    self.balance = available
    self.exchange = exchange
  }
  public func place(_ order: Order) async throws -> OrderConfirmation {
    guard order.cost <= available else {
      throw InsufficientBuyingPower(needed: order.cost, available: available)
    }
    let id = nextID
    nextID += 1
    open[id] = order.cost
    defer { open[id] = nil }
    do {
      let c = try await exchange.submit(order)
      spent += order.cost
      return c
    } catch let error as OrderRejected {
      throw error
    } catch {
      unknownFate.insert(order)
      throw error
    }
  }
}

public struct InsufficientBuyingPower: Error, Equatable {
  public let needed: Int
  public let available: Int
}
