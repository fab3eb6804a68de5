// Expected to fail: An older answer does not replace a newer one, even while both refreshes are away from the store
// Checks that its answer is newer than the one shown, lets a price-alerts actor look at it, then
// shows it: two answers checked before either is shown end with the older.
import Services

@concurrent
private func rounded(_ quote: Quote) async -> Quote {
  Quote(symbol: quote.symbol, price: quote.price)
}

private actor PriceAlerts {
  private var last: [String: Int] = [:]
  func observe(_ quote: Quote) {
    last[quote.symbol] = quote.price
  }
}

public actor QuoteStore {
  private var quotes: [String: Quote] = [:]
  /// The number of the newest request sent for each symbol, and of the one whose answer is shown.
  private var sent: [String: Int] = [:]
  private var shown: [String: Int] = [:]
  private let source: any QuoteSource
  private let alerts = PriceAlerts()

  public init(source: any QuoteSource) {
    self.source = source
  }

  public func quote(for symbol: String) -> Quote? {
    quotes[symbol]
  }

  public func refresh(_ symbol: String) async throws {
    let number = (sent[symbol] ?? 0) + 1
    sent[symbol] = number
    let quote = try await source.latestQuote(for: symbol)
    guard number > shown[symbol] ?? 0 else { return }
    await alerts.observe(quote)
    quotes[symbol] = quote
    shown[symbol] = number
  }
}
