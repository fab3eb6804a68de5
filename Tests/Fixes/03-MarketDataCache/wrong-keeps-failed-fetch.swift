// Expected to fail: Every reader waiting on a failed fetch gets the error, and the next read fetches again
// A failed fetch stays in the state, so the cache fails for good.
import Services

public actor MarketDataCache {
  private enum State {
    case empty
    case fetching(Task<OrderBookSnapshot, any Error>)
    case ready(OrderBookSnapshot)
  }

  private var state: State = .empty
  private let feed: any MarketDataFeed

  public init(feed: any MarketDataFeed) {
    self.feed = feed
  }

  public func snapshot() async throws -> OrderBookSnapshot {
    switch state {
    case .ready(let snapshot): return snapshot
    case .fetching(let fetch): return try await fetch.value
    case .empty:
      let fetch = Task { try await feed.latestSnapshot() }
      state = .fetching(fetch)
      let snapshot = try await fetch.value
      state = .ready(snapshot)
      return snapshot
    }
  }
}
