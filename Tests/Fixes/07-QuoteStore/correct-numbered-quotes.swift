// Keeps each shown quote together with the number of the request that brought it.
import Services

public actor QuoteStore {
  private var shown: [String: (request: Int, quote: Quote)] = [:]
  private var sent: [String: Int] = [:]
  private let source: any QuoteSource

  public init(source: any QuoteSource) {
    self.source = source
  }

  public func quote(for symbol: String) -> Quote? {
    shown[symbol]?.quote
  }

  public func refresh(_ symbol: String) async throws {
    sent[symbol, default: 0] += 1
    let request = sent[symbol, default: 0]
    let quote = try await source.latestQuote(for: symbol)
    if let current = shown[symbol], current.request > request { return }
    shown[symbol] = (request, quote)
  }
}
