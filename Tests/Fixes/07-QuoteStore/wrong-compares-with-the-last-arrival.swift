// Expected to fail: Overlapping refreshes, answered in every order, at most one failing or lower, always show the newest answer
// Compares each answer with the last one to arrive, dropped or not, instead of the one shown:
// when #3 is shown and #1 arrives and is dropped, #2 then looks newer and replaces #3.
import Services

/// The prices a watchlist shows. Screens refresh a symbol whenever they appear and on a timer, so
/// refreshes of one symbol often overlap.
public actor QuoteStore {
  private var quotes: [String: Quote] = [:]
  private let source: any QuoteSource
  /// The number of the latest request sent for each symbol.
  private var requested: [String: Int] = [:]
  /// The number of the request whose answer arrived last for each symbol.
  private var lastArrived: [String: Int] = [:]

  public init(source: any QuoteSource) {
    self.source = source
  }

  /// The price shown for `symbol`, if one has arrived.
  public func quote(for symbol: String) -> Quote? {
    quotes[symbol]
  }

  /// Asks for the latest price of `symbol` and shows it.
  public func refresh(_ symbol: String) async throws {
    let number = requested[symbol, default: 0] + 1
    requested[symbol] = number
    let quote = try await source.latestQuote(for: symbol)
    // Answers come back out of order: an answer older than the one that arrived before it is stale.
    let previous = lastArrived[symbol, default: 0]
    lastArrived[symbol] = number
    guard number > previous else {
      return
    }
    quotes[symbol] = quote
  }
}
