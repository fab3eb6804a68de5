import Services

/// Holds the order book that the trading screens read, so that they share one fetch from the
/// exchange.
public actor MarketDataCache {
  private var cached: OrderBookSnapshot?
  private let feed: any MarketDataFeed

  public init(feed: any MarketDataFeed) {
    self.feed = feed
  }

  /// The latest order book: the cached one when there is one, a fresh one from the feed otherwise.
  public func snapshot() async throws -> OrderBookSnapshot {
    if let cached {
      return cached
    }
    let fresh = try await feed.latestSnapshot()
    cached = fresh
    return fresh
  }
}
