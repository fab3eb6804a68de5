// Expected to fail: Of three requests out, the second's answer stays shown when the third fails
// Once it keeps an answer, takes only answers of requests as new as the newest one sent: with
// three requests out, the first's answer shuts the second's out.
import Services

public actor QuoteStore {
  private var quotes: [String: Quote] = [:]
  private var issued: [String: Int] = [:]
  private var watermark: [String: Int] = [:]
  private let source: any QuoteSource

  public init(source: any QuoteSource) { self.source = source }

  public func quote(for symbol: String) -> Quote? { quotes[symbol] }

  public func refresh(_ symbol: String) async throws {
    let ticket = issued[symbol, default: 0] + 1
    issued[symbol] = ticket
    let quote = try await source.latestQuote(for: symbol)
    if ticket >= watermark[symbol, default: 0] {
      watermark[symbol] = issued[symbol]!
      quotes[symbol] = quote
    }
  }
}
