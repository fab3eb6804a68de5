// Expected to fail: An older answer does not replace a newer one, even while both refreshes are away from the store
// Checks that its answer is newer than the one shown, then rebuilds the quote in a `@concurrent`
// function before it shows it: two answers checked before either is shown end with the older.
import Services

public actor QuoteStore {
  private var quotes: [String: Quote] = [:]
  private let source: any QuoteSource
  private var requested: [String: Int] = [:]
  private var shown: [String: Int] = [:]

  public init(source: any QuoteSource) {
    self.source = source
  }

  public func quote(for symbol: String) -> Quote? {
    quotes[symbol]
  }

  public func refresh(_ symbol: String) async throws {
    let number = requested[symbol, default: 0] + 1
    requested[symbol] = number
    let quote = try await source.latestQuote(for: symbol)
    guard number > shown[symbol, default: 0] else {
      return
    }
    let display = await Self.forDisplay(quote)
    shown[symbol] = number
    quotes[symbol] = display
  }

  /// Rebuilds the quote for display, off the actor.
  @concurrent private nonisolated static func forDisplay(_ q: Quote) async -> Quote {
    Quote(symbol: String(q.symbol), price: Int(String(q.price)) ?? q.price)
  }
}
