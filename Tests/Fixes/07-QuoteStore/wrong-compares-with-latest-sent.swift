// Expected to fail: Answers that arrive in order are each shown as they arrive
// Shows an answer only if it belongs to the latest request sent, so a newer answer can be dropped.
import Services

public actor QuoteStore {
  private var quotes: [String: Quote] = [:]
  private var requested: [String: Int] = [:]
  private let source: any QuoteSource

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
    guard number == requested[symbol] else { return }
    quotes[symbol] = quote
  }
}
