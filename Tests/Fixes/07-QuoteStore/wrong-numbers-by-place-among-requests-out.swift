// Expected to fail: A request sent after an older one answered is newer than every request before it
// Numbers each request by its place among the requests of its symbol out at the moment: once an
// older one has ended, a newer request gets a number an older one still holds.
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
  private var inFlight: [String: Int] = [:]
  private var shown: [String: Int] = [:]
  public func refresh(_ symbol: String) async throws {
    inFlight[symbol, default: 0] += 1
    let n = inFlight[symbol]!  // my place among the requests out now
    defer {
      inFlight[symbol]! -= 1
      if inFlight[symbol] == 0 {
        inFlight[symbol] = nil
        shown[symbol] = nil
      }
    }
    let quote = try await source.latestQuote(for: symbol)
    if n > shown[symbol, default: 0] {
      quotes[symbol] = quote
      shown[symbol] = n
    }
  }
}
