/// A buy order, with amounts in cents so that sums are exact.
public struct Order: Hashable, Sendable {
  public let symbol: String
  public let quantity: Int
  /// The most the buyer pays per share, in cents.
  public let limitPrice: Int

  public init(symbol: String, quantity: Int, limitPrice: Int) {
    self.symbol = symbol
    self.quantity = quantity
    self.limitPrice = limitPrice
  }

  /// What the order can cost at most, in cents.
  public var cost: Int {
    quantity * limitPrice
  }
}

/// The exchange's receipt for an order it accepted.
public struct OrderConfirmation: Hashable, Sendable {
  public let orderID: Int
  public let order: Order

  public init(orderID: Int, order: Order) {
    self.orderID = orderID
    self.order = order
  }
}

/// Where orders go.
public protocol Exchange: Sendable {
  /// Sends an order and waits for the exchange to accept it.
  ///
  /// Throws ``OrderRejected`` if the exchange turns the order down. Any other error (a timeout, a
  /// lost connection, the caller's cancellation) means the answer never arrived: the exchange may
  /// still have accepted the order and may fill it.
  func submit(_ order: Order) async throws -> OrderConfirmation
}

/// The exchange turned an order down.
public struct OrderRejected: Error, Equatable, CustomStringConvertible {
  public let reason: String

  public init(reason: String) {
    self.reason = reason
  }

  public var description: String {
    "the exchange rejected the order: \(reason)"
  }
}

/// The price of a stock at one moment, in cents.
public struct Quote: Hashable, Sendable {
  public let symbol: String
  public let price: Int

  public init(symbol: String, price: Int) {
    self.symbol = symbol
    self.price = price
  }
}

/// Where quotes come from.
public protocol QuoteSource: Sendable {
  func latestQuote(for symbol: String) async throws -> Quote
}
