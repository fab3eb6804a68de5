// Expected to fail: After a failed fetch and a change of book, the next snapshot is kept as before
// Checks that the fetch is still the current one, and also that its book is newer than the
// number of fetches made before the last change, on the belief that fetch n brings book n.
// After a failed fetch the numbers part: every book brought after the next change is thrown
// away, and each read fetches again.
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
    if case .fetching(let running) = state { return running == fetch }
    return false
  }
  private var fetchesStarted = 0
  private var fetchesAtLastChange = 0

  public func snapshot() async throws -> OrderBookSnapshot {
    switch state {
    case .ready(let snapshot):
      return snapshot
    case .fetching(let fetch):
      return try await fetch.value
    case .empty:
      fetchesStarted += 1
      let fetch = Task { try await feed.latestSnapshot() }
      state = .fetching(fetch)
      do {
        let snapshot = try await fetch.value
        if isCurrent(fetch) {
          state = snapshot.sequence > fetchesAtLastChange ? .ready(snapshot) : .empty
        }
        return snapshot
      } catch {
        if isCurrent(fetch) { state = .empty }
        throw error
      }
    }
  }

  public func invalidate() {
    fetchesAtLastChange = fetchesStarted
    state = .empty
  }
}
