// Expected to fail: A snapshot whose reader was away from the cache when invalidate() ran is not kept after it
// Checks that its fetch is still the current one, then sorts the book in a `@concurrent` function
// before it keeps it: an invalidate() while the reader is away is forgotten when it comes back.
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
          // Sort the levels off the actor before caching the book.
          let checked = await Self.validate(snapshot)
          state = .ready(checked)
          return checked
        }
        return snapshot
      } catch {
        if isCurrent(fetch) {
          state = .empty
        }
        throw error
      }
    }
  }

  public func invalidate() {
    state = .empty
  }

  @concurrent private nonisolated static func validate(_ s: OrderBookSnapshot) async
    -> OrderBookSnapshot
  {
    OrderBookSnapshot(
      sequence: s.sequence,
      bids: s.bids.map { PriceLevel(price: $0.price, quantity: $0.quantity) },
      asks: s.asks.map { PriceLevel(price: $0.price, quantity: $0.quantity) })
  }

  private func isCurrent(_ fetch: Task<OrderBookSnapshot, any Error>) -> Bool {
    if case .fetching(let current) = state { current == fetch } else { false }
  }
}
