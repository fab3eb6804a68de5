/// One trade price of a symbol, from the exchange's live ticker, which numbers them.
public struct Tick: Hashable, Sendable {
  public let sequence: Int
  public let symbol: String
  /// The price, in cents.
  public let price: Int

  public init(sequence: Int, symbol: String, price: Int) {
    self.sequence = sequence
    self.symbol = symbol
    self.price = price
  }
}

/// A live connection to the exchange's ticker, in the style of a socket delegate.
public protocol TickerSocket: Sendable {
  /// Opens a connection for `symbol`, and calls `onTick` for every tick, on the socket's own
  /// thread, until the connection closes. Returns once it has closed: when the exchange closes
  /// it, or when the task that called this is cancelled, which closes it from this side.
  func connect(to symbol: String, onTick: @escaping @Sendable (Tick) -> Void) async
}
