// Expected to fail: A reader who gives up while its fetch runs leaves the snapshot for the next reader
// The reader who started a fetch and was cancelled while it waited empties the state when the
// fetch answers, as if nobody wanted the book; but a reader who joined the fetch still did, and
// the snapshot that arrived is lost, so the next reader fetches the same book again.
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
      return try await fetch.value
    case .empty:
      let fetch = Task { try await feed.latestSnapshot() }
      state = .fetching(fetch)
      do {
        let snapshot = try await fetch.value
        if Task.isCancelled {
          state = .empty
          throw CancellationError()
        }
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
