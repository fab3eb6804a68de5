// Expected to fail: A request sent after an older one failed is newer than every request before it
// Numbers the requests of each symbol, and takes a failed request's number back, as if it had
// never been sent: the next request gets a number that an older one still holds, and its answer
// looks no newer than that one's.
import Foundation
import Services

public actor QuoteStore {
  private var quotes: [String: Quote] = [:]
  private let source: any QuoteSource

  public init(source: any QuoteSource) {
    self.source = source
  }

  public func quote(for symbol: String) -> Quote? {
    quotes[symbol]
  }
  private var issued: [String: Int] = [:]
  private var shown: [String: Int] = [:]
  public func refresh(_ symbol: String) async throws {
    let n = issued[symbol, default: 0] + 1
    issued[symbol] = n
    let quote: Quote
    do {
      quote = try await source.latestQuote(for: symbol)
    } catch {
      issued[symbol, default: 1] -= 1  // a failed request does not count
      throw error
    }
    if n > shown[symbol, default: 0] {
      quotes[symbol] = quote
      shown[symbol] = n
    }
  }
}
