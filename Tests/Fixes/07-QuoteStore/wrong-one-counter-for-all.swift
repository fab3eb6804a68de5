// Expected to fail: Each symbol keeps its own order
// Numbers requests across all symbols, so one symbol's answer makes another's look old.
import Services

public actor QuoteStore {
  private var quotes: [String: Quote] = [:]
  private var requested = 0
  private var shown = 0
  private let source: any QuoteSource

  public init(source: any QuoteSource) {
    self.source = source
  }

  public func quote(for symbol: String) -> Quote? {
    quotes[symbol]
  }

  public func refresh(_ symbol: String) async throws {
    requested += 1
    let number = requested
    let quote = try await source.latestQuote(for: symbol)
    guard number > shown else { return }
    shown = number
    quotes[symbol] = quote
  }
}
