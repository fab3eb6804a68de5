/// One price level of an order book: how much is bid or offered at a price.
public struct PriceLevel: Hashable, Sendable {
  public let price: Double
  public let quantity: Double

  public init(price: Double, quantity: Double) {
    self.price = price
    self.quantity = quantity
  }
}

/// The order book at one moment, as the exchange published it.
public struct OrderBookSnapshot: Hashable, Sendable {
  /// The exchange numbers its snapshots; a higher number is a later book.
  public let sequence: Int
  public let bids: [PriceLevel]
  public let asks: [PriceLevel]

  public init(sequence: Int, bids: [PriceLevel], asks: [PriceLevel]) {
    self.sequence = sequence
    self.bids = bids
    self.asks = asks
  }
}

/// Fetches order-book snapshots from an exchange.
///
/// A fetch brings the book as the exchange has it at some moment while the fetch is out. Two
/// fetches bring the same book when it did not change between them. A fetch that started before
/// another may bring a later book than that one.
public protocol MarketDataFeed: Sendable {
  func latestSnapshot() async throws -> OrderBookSnapshot
}
