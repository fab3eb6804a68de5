// Expected to fail: A reader still handling its failed fetch does not undo a newer one
// Checks that its failed fetch is still the current one, then awaits a `Task.detached` before it
// clears the state: a fetch started meanwhile, after a change of book, is cleared with it.
import Services

public actor MarketDataCache {
  private enum State {
    case empty
    case fetching(Task<OrderBookSnapshot, any Error>)
    case ready(OrderBookSnapshot)
  }

  private var state: State = .empty
  private let feed: any MarketDataFeed
  private var lastFailure = ""

  public init(feed: any MarketDataFeed) {
    self.feed = feed
  }

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
        if isCurrent(fetch) {
          state = .ready(snapshot)
        }
        return snapshot
      } catch {
        if isCurrent(fetch) {
          let text = String(describing: error)
          lastFailure = await Task.detached { "order book fetch failed: " + text.uppercased() }
            .value
          state = .empty
        }
        throw error
      }
    }
  }

  public func invalidate() {
    state = .empty
  }

  private func isCurrent(_ fetch: Task<OrderBookSnapshot, any Error>) -> Bool {
    if case .fetching(let current) = state { current == fetch } else { false }
  }
}
