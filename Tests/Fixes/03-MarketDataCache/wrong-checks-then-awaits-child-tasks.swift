// Expected to fail: A snapshot whose reader was away from the cache when invalidate() ran is not kept after it
// Checks that its fetch is still current, then awaits two `async let` child tasks before it keeps
// the book: a change of book while the reader waits for them is undone.
import Services

public actor MarketDataCache {
  private enum State {
    case empty
    case fetching(Task<OrderBookSnapshot, any Error>)
    case ready(OrderBookSnapshot)
  }

  private var state: State = .empty
  private var lastSpread: Double?
  private let feed: any MarketDataFeed

  public init(feed: any MarketDataFeed) {
    self.feed = feed
  }

  private func isCurrent(_ fetch: Task<OrderBookSnapshot, any Error>) -> Bool {
    if case .fetching(let current) = state, current == fetch { return true }
    return false
  }

  public func snapshot() async throws -> OrderBookSnapshot {
    switch state {
    case .ready(let snapshot):
      return snapshot
    case .fetching(let fetch):
      return try await fetch.value
    case .empty:
      let fetch = Task { [feed] in try await feed.latestSnapshot() }
      state = .fetching(fetch)
      do {
        let snapshot = try await fetch.value
        guard isCurrent(fetch) else { return snapshot }
        async let bestBid = snapshot.bids.map(\.price).max()
        async let bestAsk = snapshot.asks.map(\.price).min()
        if let bid = await bestBid, let ask = await bestAsk {
          lastSpread = ask - bid
        }
        state = .ready(snapshot)
        return snapshot
      } catch {
        if isCurrent(fetch) { state = .empty }
        throw error
      }
    }
  }

  public func invalidate() {
    state = .empty
  }
}
