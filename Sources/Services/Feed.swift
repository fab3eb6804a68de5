/// One update from a market-data socket. Each must be applied after the one before it.
///
/// `sequence` is the number the exchange gave the message. The exchange numbers everything it
/// publishes, across all symbols and all connections, in one increasing series, and a connection
/// receives only its share of it. So the first message on a connection may carry any number,
/// however large, and the numbers a connection receives always increase but need not be
/// consecutive: a gap between two of them is normal, and does not mean a message was lost.
public struct FeedMessage: Hashable, Sendable {
  public let sequence: Int
  public let symbol: String
  /// The new price, in cents.
  public let price: Int

  public init(sequence: Int, symbol: String, price: Int) {
    self.sequence = sequence
    self.symbol = symbol
    self.price = price
  }
}

/// A live connection that pushes messages, in the style of a socket delegate.
public protocol FeedSocket: Sendable {
  /// Opens the connection and calls `onMessage` for every message as it arrives, in order, on the
  /// socket's own thread. Returns when the connection closes.
  func connect(onMessage: @escaping @Sendable (FeedMessage) -> Void) async
}

/// Durable storage that every message is written to before it is applied, so that the state can
/// be rebuilt by replaying the journal after a crash.
public protocol FeedJournal: Sendable {
  func append(_ message: FeedMessage) async
}
