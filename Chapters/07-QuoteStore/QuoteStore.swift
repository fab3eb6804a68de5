import Services

/// The prices a watchlist shows. Screens refresh a symbol whenever they appear and on a timer, so
/// refreshes of one symbol often overlap.
public actor QuoteStore {
  private var quotes: [String: Quote] = [:]
  private let source: any QuoteSource

  public init(source: any QuoteSource) {
    self.source = source
  }

  /// The price shown for `symbol`, if one has arrived.
  public func quote(for symbol: String) -> Quote? {
    quotes[symbol]
  }

  /// Asks for the latest price of `symbol` and shows it.
  public func refresh(_ symbol: String) async throws {
    let quote = try await source.latestQuote(for: symbol)
    quotes[symbol] = quote
  }
}
