// Expected to fail: Overlapping refreshes, answered in every order, at most one failing or lower, always show the newest answer
// Forgets which answer is shown whenever a request goes out, as if nothing could be newer than
// it yet: an older answer that arrives after that replaces the newer one on screen.
import Services

/// The prices a watchlist shows. Screens refresh a symbol whenever they appear and on a timer, so
/// refreshes of one symbol often overlap.
public actor QuoteStore {
  private var quotes: [String: Quote] = [:]
  private let source: any QuoteSource
  /// The number of the latest request sent for each symbol.
  private var requested: [String: Int] = [:]
  /// The number of the request whose answer is shown, among those answered since the latest request went out.
  private var shown: [String: Int] = [:]

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
    // A new request is out: whatever is shown is older than it.
    shown[symbol] = 0
    let quote = try await source.latestQuote(for: symbol)
    guard number > shown[symbol, default: 0] else {
      return
    }
    shown[symbol] = number
    quotes[symbol] = quote
  }
}
