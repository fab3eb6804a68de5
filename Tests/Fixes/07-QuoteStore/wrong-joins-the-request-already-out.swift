// Expected to fail: Overlapping refreshes, answered in every order, at most one failing or lower, always show the newest answer
// Lets a refresh that starts while another of its symbol is out wait for that request instead of
// sending its own, as chapter 02's cache shares a download. The refresh then shows a price asked
// for before it began, and never one newer than the other's.
import Services

public actor QuoteStore {
  private var quotes: [String: Quote] = [:]
  private var inFlight: [String: Task<Quote, any Error>] = [:]
  private let source: any QuoteSource

  public init(source: any QuoteSource) {
    self.source = source
  }

  public func quote(for symbol: String) -> Quote? {
    quotes[symbol]
  }

  public func refresh(_ symbol: String) async throws {
    if let task = inFlight[symbol] {
      _ = try await task.value
      return
    }
    let source = self.source
    let task = Task { try await source.latestQuote(for: symbol) }
    inFlight[symbol] = task
    defer { inFlight[symbol] = nil }
    quotes[symbol] = try await task.value
  }
}
