// invalidate() calls off the running fetch, whose book is already old; its readers then ask again
// and get the newer book. The promise lets a reader who asked before the change get the old book,
// and does not make it wait for one.
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

  public func snapshot() async throws -> OrderBookSnapshot {
    while true {
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
      do {
        let snapshot = try await fetch.value
        if isCurrent(fetch) { state = .ready(snapshot) }
        return snapshot
      } catch {
        // invalidate() called this fetch off: ask again, for the new book.
        if fetch.isCancelled && !Task.isCancelled { continue }
        if isCurrent(fetch) { state = .empty }
        throw error
      }
    }
  }

  public func invalidate() {
    if case .fetching(let fetch) = state { fetch.cancel() }
    state = .empty
  }

  private func isCurrent(_ fetch: Task<OrderBookSnapshot, any Error>) -> Bool {
    if case .fetching(let current) = state { current == fetch } else { false }
  }
}
