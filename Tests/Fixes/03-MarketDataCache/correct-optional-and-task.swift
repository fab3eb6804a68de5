// A cached snapshot and a running fetch as two optionals, and a count of changes of book: a fetch
// may fill the cache, or clear the running fetch, only if no change came while it was out.
import Services

public actor MarketDataCache {
  private var cached: OrderBookSnapshot?
  private var fetching: Task<OrderBookSnapshot, any Error>?
  private var changes = 0
  private let feed: any MarketDataFeed

  public init(feed: any MarketDataFeed) {
    self.feed = feed
  }

  public func snapshot() async throws -> OrderBookSnapshot {
    if let cached { return cached }
    if let fetching { return try await fetching.value }
    let fetch = Task { try await feed.latestSnapshot() }
    fetching = fetch
    let changesBefore = changes
    defer {
      if changes == changesBefore { fetching = nil }
    }
    let fresh = try await fetch.value
    if changes == changesBefore { cached = fresh }
    return fresh
  }

  public func invalidate() {
    changes += 1
    cached = nil
    fetching = nil
  }
}
