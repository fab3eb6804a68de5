// Expected to fail: Answers that arrive in order are each shown as they arrive
// Keeps a token for each request out, but only the three newest of a symbol: with a fourth out,
// the oldest is forgotten, and its answer is dropped though it is the newest price that has
// arrived.
import Foundation
import Services

public actor QuoteStore {
  private static let keep = 3
  private var quotes: [String: Quote] = [:]
  private var outstanding: [String: [UUID]] = [:]
  private let source: any QuoteSource

  public init(source: any QuoteSource) {
    self.source = source
  }

  public func quote(for symbol: String) -> Quote? {
    quotes[symbol]
  }

  public func refresh(_ symbol: String) async throws {
    let token = UUID()
    outstanding[symbol, default: []].append(token)
    if outstanding[symbol]!.count > Self.keep { outstanding[symbol]!.removeFirst() }
    let quote: Quote
    do {
      quote = try await source.latestQuote(for: symbol)
    } catch {
      outstanding[symbol]?.removeAll { $0 == token }
      throw error
    }
    guard let index = outstanding[symbol]?.firstIndex(of: token) else { return }
    quotes[symbol] = quote
    outstanding[symbol]!.removeSubrange(...index)
  }
}
