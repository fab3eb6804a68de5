// Expected to fail: Three reads and a change of book at any point between them never keep an old book
// Every reader of a fetch, the one who started it or one who joined it, finishes it the same way:
// it stores the snapshot, or empties the state after a failure, if a fetch is under way and the
// book has not changed since it asked. A and B share fetch #1, which fails; A empties the state
// and D starts fetch #2; B, resuming late, empties the state again, so #2's snapshot is not kept
// and the next reader fetches once more in the same book's time.
import Services

public actor MarketDataCache {
  private enum State {
    case empty
    case fetching(Task<OrderBookSnapshot, any Error>)
    case ready(OrderBookSnapshot)
  }

  private var state: State = .empty
  private var epoch = 0
  private let feed: any MarketDataFeed

  public init(feed: any MarketDataFeed) {
    self.feed = feed
  }

  public func snapshot() async throws -> OrderBookSnapshot {
    let fetch: Task<OrderBookSnapshot, any Error>
    switch state {
    case .ready(let snapshot):
      return snapshot
    case .fetching(let running):
      fetch = running
    case .empty:
      fetch = Task { try await feed.latestSnapshot() }
      state = .fetching(fetch)
    }
    let askedIn = epoch
    do {
      let snapshot = try await fetch.value
      if case .fetching = state, epoch == askedIn { state = .ready(snapshot) }
      return snapshot
    } catch {
      if case .fetching = state, epoch == askedIn { state = .empty }
      throw error
    }
  }

  public func invalidate() {
    epoch &+= 1
    state = .empty
  }
}
