// Sends each request from a Task.detached and awaits its value, numbering requests as the solution
// does.
import Services

/// The prices a watchlist shows. Screens refresh a symbol whenever they appear and on a timer, so
/// refreshes of one symbol often overlap.
public actor QuoteStore {
  private var quotes: [String: Quote] = [:]
  private let source: any QuoteSource
  /// The number of the latest request sent for each symbol.
  private var requested: [String: Int] = [:]
  /// The number of the request whose answer is shown for each symbol.
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
    let quote = try await Task.detached { [source] in try await source.latestQuote(for: symbol) }
      .value
    // Answers do not come back in the order their requests went out. Show this one only if it is
    // newer than what is shown; a newer request that is still out may still replace it.
    guard number > shown[symbol, default: 0] else {
      return
    }
    shown[symbol] = number
    quotes[symbol] = quote
  }
}
