// Expected to fail: A request sent after the newest one failed is newer than every request before it
// When the newest request fails, hands its number out again to the next request, though an
// older request still holds the number before it: the next request can be numbered as old.
import Services

public actor QuoteStore {
  private var quotes: [String: Quote] = [:]
  private var issued: [String: Int] = [:]
  private var shown: [String: Int] = [:]
  private let source: any QuoteSource

  public init(source: any QuoteSource) { self.source = source }

  public func quote(for symbol: String) -> Quote? { quotes[symbol] }

  public func refresh(_ symbol: String) async throws {
    let ticket = issued[symbol, default: 0] + 1
    issued[symbol] = ticket
    do {
      let quote = try await source.latestQuote(for: symbol)
      if ticket > shown[symbol, default: 0] {
        shown[symbol] = ticket
        quotes[symbol] = quote
      }
    } catch {
      if issued[symbol] == ticket { issued[symbol] = shown[symbol, default: 0] }
      throw error
    }
  }
}
