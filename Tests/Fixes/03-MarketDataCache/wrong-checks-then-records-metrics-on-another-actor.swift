// Expected to fail: A snapshot whose reader was away from the cache when invalidate() ran is not kept after it
// Checks that its fetch is still current, then records the book with a metrics actor before it
// keeps it: a change of book while the reader is on that actor is undone.
import Services

private actor Metrics {
  private var sequences: [Int] = []
  func recordFetched(_ sequence: Int) {
    sequences.append(sequence)
  }
}

public actor MarketDataCache {
  private enum State {
    case empty
    case fetching(Task<OrderBookSnapshot, any Error>)
    case ready(OrderBookSnapshot)
  }

  private var state: State = .empty
  private let feed: any MarketDataFeed
  private let metrics = Metrics()

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
        await metrics.recordFetched(snapshot.sequence)
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
