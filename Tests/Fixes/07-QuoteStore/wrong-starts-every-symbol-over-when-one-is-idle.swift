// Expected to fail: An older answer stays old after another symbol's refreshes have all ended
// Numbers each symbol's requests and shows an answer only if it is newer than the one shown; when
// no request of the refreshed symbol is out any more, it starts the numbers over, but for every
// symbol. ACME's request #1 is still out when a GLOBEX refresh ends, so its answer, arriving
// after #2's, counts as new again and replaces it.
import Services

public actor QuoteStore {
  private var quotes: [String: Quote] = [:]
  private var inFlight: [String: Int] = [:]
  private var next: [String: Int] = [:]
  private var shown: [String: Int] = [:]
  private let source: any QuoteSource

  public init(source: any QuoteSource) {
    self.source = source
  }

  public func quote(for symbol: String) -> Quote? {
    quotes[symbol]
  }

  public func refresh(_ symbol: String) async throws {
    inFlight[symbol, default: 0] += 1
    next[symbol, default: 0] += 1
    let number = next[symbol]!
    defer {
      inFlight[symbol]! -= 1
      if inFlight[symbol] == 0 {
        // Nothing of this symbol is out: the numbers can start over.
        inFlight = inFlight.filter { $0.value > 0 }
        next.removeAll()
        shown.removeAll()
      }
    }
    let quote = try await source.latestQuote(for: symbol)
    if number > shown[symbol, default: 0] {
      shown[symbol] = number
      quotes[symbol] = quote
    }
  }
}
