// Fetches in a Task.detached instead of a Task {}: the fetch carries none of the actor's context.
import Services

/// Holds the order book that the trading screens read, so that they share one fetch from the
/// exchange, and forgets it when the exchange says the book has changed.
public actor MarketDataCache {
  /// Where the cache stands. A reader who arrives while another is suspended finds out from this
  /// what to do: fetch, wait for the fetch under way, or take the snapshot.
  private enum State {
    /// Nothing fetched, and no fetch running: the next reader starts one.
    case empty
    /// A fetch is running; readers who arrive now wait for it.
    case fetching(Task<OrderBookSnapshot, any Error>)
    /// A snapshot arrived; readers get it without a fetch.
    case ready(OrderBookSnapshot)
  }

  private var state: State = .empty
  private let feed: any MarketDataFeed

  public init(feed: any MarketDataFeed) {
    self.feed = feed
  }

  /// The latest order book: the cached one when there is one, a fresh one from the feed otherwise.
  public func snapshot() async throws -> OrderBookSnapshot {
    switch state {
    case .ready(let snapshot):
      return snapshot
    case .fetching(let fetch):
      return try await fetch.value
    case .empty:
      let fetch = Task.detached { [feed] in try await feed.latestSnapshot() }
      state = .fetching(fetch)
      do {
        let snapshot = try await fetch.value
        // While this reader waited, invalidate() may have emptied the state, and another reader
        // may have started a newer fetch. Only the fetch the state still names may decide what
        // comes next; this reader keeps its snapshot, which was current when it asked.
        if isCurrent(fetch) {
          state = .ready(snapshot)
        }
        return snapshot
      } catch {
        // A failed fetch is not a snapshot: the next reader fetches again.
        if isCurrent(fetch) {
          state = .empty
        }
        throw error
      }
    }
  }

  /// Forgets the book, because the exchange announced a new one: the next reader fetches it.
  public func invalidate() {
    state = .empty
  }

  /// Whether `fetch` is the fetch the state is waiting for.
  private func isCurrent(_ fetch: Task<OrderBookSnapshot, any Error>) -> Bool {
    if case .fetching(let current) = state { current == fetch } else { false }
  }
}
