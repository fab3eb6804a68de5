import ScheduleExplorer
import Services
import Testing

/// A ``QuoteSource`` whose answers wait until the test lets them arrive, in any order it likes.
///
/// Request number *n* answers with ``quote(number:symbol:lower:)``, a price of $100 plus *n*
/// cents, so a test can tell which request a shown quote came from. Nothing promises that a newer
/// price is higher, so a request can also answer `lower`: $90 plus *n* cents, a price that fell
/// since the requests before it.
///
/// What ``QuoteSource`` documents, and how this fake does it:
/// - "Where quotes come from": the outcome `quote`, or the outcome `lower`, answered in any order.
/// - Besides: the outcome `error`, a ``FakeNetworkError``; a cancelled request throws
///   `CancellationError` at once.
public final class FakeQuoteSource: QuoteSource, FakeService {
  public let requests: Requests

  public init(_ scenario: Scenario) {
    requests = Requests(
      noun: "request", preposition: "for", outcomes: ["quote", "error", "lower"],
      scenario: scenario)
  }

  /// Lets request `number` finish with an error instead of a quote.
  public func fail(_ number: Int) {
    requests.release(number, as: "error")
  }

  public func latestQuote(for symbol: String) async throws -> Quote {
    try await requests.perform(for: symbol) { number, outcome in
      if outcome == "error" { throw FakeNetworkError(request: number) }
      let quote = Self.quote(number: number, symbol: symbol, lower: outcome == "lower")
      return (quote, "answers \(quote.testDescription)")
    }
  }

  /// The answer to request `number`: $100 plus `number` cents, or, `lower`, $90 plus `number`
  /// cents.
  public static func quote(number: Int, symbol: String = "ACME", lower: Bool = false) -> Quote {
    Quote(symbol: symbol, price: (lower ? 9_000 : 10_000) + number)
  }
}

extension Quote: CustomTestStringConvertible {
  /// `quote #2 ($100.02)`, naming the fake request the price came from.
  public var testDescription: String {
    "quote #\(price % 1_000) (\(dollars(price)))"
  }
}
