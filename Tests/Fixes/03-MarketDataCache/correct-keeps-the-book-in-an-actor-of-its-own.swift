// Keeps the book in a private actor of its own, which does each check and its change in one step,
// and forwards both calls to it; `invalidate()` is async. A read that asked before a change may
// reach that actor after the change has begun, and its fetch then counts as the old book's.
import Services

/// Holds the order book that the trading screens read, so that they share one fetch from the
/// exchange, and forgets it when the exchange says the book has changed.
public actor MarketDataCache {
  private let book: Book

  public init(feed: any MarketDataFeed) {
    book = Book(feed: feed)
  }

  /// The latest order book: the cached one when there is one, a fresh one from the feed otherwise.
  public func snapshot() async throws -> OrderBookSnapshot {
    try await book.snapshot()
  }

  /// Forgets the book, because the exchange announced a new one: the next reader fetches it.
  public func invalidate() async {
    await book.forget()
  }
}

/// The book itself, and the fetch under way.
private actor Book {
  private enum State {
    case empty
    case fetching(Task<OrderBookSnapshot, any Error>)
    case ready(OrderBookSnapshot)
  }

  private var state: State = .empty
  private let feed: any MarketDataFeed

  init(feed: any MarketDataFeed) {
    self.feed = feed
  }

  func snapshot() async throws -> OrderBookSnapshot {
    switch state {
    case .ready(let snapshot):
      return snapshot
    case .fetching(let fetch):
      return try await fetch.value
    case .empty:
      let fetch = Task { [feed] in try await feed.latestSnapshot() }
      state = .fetching(fetch)
      let result = await fetch.result
      // Only the fetch still on record may land: a change while it ran made it the old book's.
      if case .fetching(let current) = state, current == fetch {
        if case .success(let snapshot) = result {
          state = .ready(snapshot)
        } else {
          state = .empty
        }
      }
      return try result.get()
    }
  }

  func forget() {
    state = .empty
  }
}
