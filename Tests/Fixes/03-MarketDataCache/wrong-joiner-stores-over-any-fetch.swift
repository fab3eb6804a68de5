// Expected to fail: Three reads and a change of book at any point between them never keep an old book
// The reader who started a fetch stores its snapshot only if the state still names that fetch,
// but a reader who joined it stores its snapshot over any fetch under way. A starts fetch #1 and B
// joins it; the book changes and D starts fetch #2; when #1 answers, B stores the old book over
// #2, and D's newer snapshot is then not kept: the next reader gets the old book.
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

  private func isCurrent(_ fetch: Task<OrderBookSnapshot, any Error>) -> Bool {
    if case .fetching(let current) = state, current == fetch { return true }
    return false
  }

  public func snapshot() async throws -> OrderBookSnapshot {
    switch state {
    case .ready(let snapshot):
      return snapshot
    case .fetching(let fetch):
      let snapshot = try await fetch.value
      // Save the starter a step if it has not resumed yet.
      if case .fetching = state { state = .ready(snapshot) }
      return snapshot
    case .empty:
      let fetch = Task { try await feed.latestSnapshot() }
      state = .fetching(fetch)
      do {
        let snapshot = try await fetch.value
        if isCurrent(fetch) { state = .ready(snapshot) }
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
