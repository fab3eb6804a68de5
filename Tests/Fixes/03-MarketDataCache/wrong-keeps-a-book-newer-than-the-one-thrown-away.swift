// Expected to fail: A fetch out through a change is not kept for being newer than the book thrown away
// Keeps a fetch overtaken by a change when its book is newer than the one the change threw away,
// taking it for the book announced; after a second change it is older than that one.
import Services

public actor MarketDataCache {
  private enum State {
    case empty
    case fetching(Task<OrderBookSnapshot, any Error>)
    case ready(OrderBookSnapshot)
  }
  private var state: State = .empty
  private var generation = 0
  /// The sequence of the last book invalidate() discarded; a later one is the announced book.
  private var discarded: Int?
  private let feed: any MarketDataFeed

  public init(feed: any MarketDataFeed) { self.feed = feed }

  private func stillFetching(_ fetch: Task<OrderBookSnapshot, any Error>) -> Bool {
    if case .fetching(let current) = state, current == fetch { return true }
    return false
  }

  public func snapshot() async throws -> OrderBookSnapshot {
    switch state {
    case .ready(let snapshot): return snapshot
    case .fetching(let fetch): return try await fetch.value
    case .empty:
      let fetch = Task { try await feed.latestSnapshot() }
      state = .fetching(fetch)
      let mine = generation
      do {
        let snapshot = try await fetch.value
        if generation == mine {
          state = .ready(snapshot)
        } else if let discarded, snapshot.sequence > discarded {
          // Overtaken, but it brought a book newer than the one thrown away: keep it.
          if case .ready(let current) = state, current.sequence >= snapshot.sequence {
          } else {
            state = .ready(snapshot)
          }
        }
        return snapshot
      } catch {
        if generation == mine { state = .empty }
        throw error
      }
    }
  }

  public func invalidate() {
    generation += 1
    if case .ready(let snapshot) = state { discarded = snapshot.sequence }
    state = .empty
  }
}
