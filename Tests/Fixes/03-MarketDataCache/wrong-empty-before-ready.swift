// Expected to fail: A reader who asks just as the fetch finishes joins it instead of fetching again
// The fetch puts the cache back to empty as it ends; the reader stores the snapshot only later.
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
      let fetch = Task {
        defer { state = .empty }
        return try await feed.latestSnapshot()
      }
      state = .fetching(fetch)
      let snapshot = try await fetch.value
      state = .ready(snapshot)
      return snapshot
    }
  }
}
