// Expected to fail: Of three requests out, the second's answer stays shown when the third fails
// Keeps an answer only when its request is the newest one sent, or nothing is shown yet: with
// three requests out, the second's answer is dropped, and the third may never answer.
import Services

public actor QuoteStore {
  private var quotes: [String: Quote] = [:]
  private var issued: [String: Int] = [:]
  private let source: any QuoteSource

  public init(source: any QuoteSource) { self.source = source }

  public func quote(for symbol: String) -> Quote? { quotes[symbol] }

  public func refresh(_ symbol: String) async throws {
    let ticket = issued[symbol, default: 0] + 1
    issued[symbol] = ticket
    let quote = try await source.latestQuote(for: symbol)
    if ticket == issued[symbol] || quotes[symbol] == nil {
      quotes[symbol] = quote
    }
  }
}
