// A cached snapshot and a running fetch as two optionals.
import Services

public actor MarketDataCache {
  private var cached: OrderBookSnapshot?
  private var fetching: Task<OrderBookSnapshot, any Error>?
  private let feed: any MarketDataFeed

  public init(feed: any MarketDataFeed) {
    self.feed = feed
  }

  public func snapshot() async throws -> OrderBookSnapshot {
    if let cached { return cached }
    if let fetching { return try await fetching.value }
    let fetch = Task { try await feed.latestSnapshot() }
    fetching = fetch
    defer { fetching = nil }
    let fresh = try await fetch.value
    cached = fresh
    return fresh
  }
}
