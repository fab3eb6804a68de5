// Expected to fail: A fetch that was out through two changes of book is not kept either
// Remembers the fetch that invalidate() made old, and stores nothing it brings. One remembered
// fetch is not enough: a second change while that fetch is still out remembers the newer fetch
// instead, and the first one's book is kept when it returns.
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

  /// The fetch that invalidate() made old: what it brings is not stored.
  private var oldFetch: Task<OrderBookSnapshot, any Error>?

  public func snapshot() async throws -> OrderBookSnapshot {
    switch state {
    case .ready(let snapshot):
      return snapshot
    case .fetching(let fetch):
      return try await fetch.value
    case .empty:
      let fetch = Task { try await feed.latestSnapshot() }
      state = .fetching(fetch)
      do {
        let snapshot = try await fetch.value
        if fetch != oldFetch { state = .ready(snapshot) }
        return snapshot
      } catch {
        if fetch != oldFetch { state = .empty }
        throw error
      }
    }
  }

  public func invalidate() {
    if case .fetching(let fetch) = state { oldFetch = fetch }
    state = .empty
  }
}
