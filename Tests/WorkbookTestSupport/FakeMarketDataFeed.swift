import ScheduleExplorer
import Services

/// A ``MarketDataFeed`` whose fetches wait until the test opens its gate.
///
/// Fetch number *n* returns the snapshot with sequence number *n*, so a test can tell which fetch
/// a reader's snapshot came from.
///
/// What ``MarketDataFeed`` documents, and how this fake does it:
/// - "Fetches order-book snapshots from an exchange": the outcome `snapshot`; fetches finish
///   when the test lets them, in any order.
/// - Besides: the outcome `error`, a ``FakeNetworkError``. A cancelled fetch throws
///   `CancellationError` at once, or winds down (the outcome `cancelled`), or returns its
///   snapshot anyway. Not produced: the same book for two fetches, and a later book for a fetch
///   that started earlier (the behaviours table in Docs/Instructors.md says why).
public final class FakeMarketDataFeed: MarketDataFeed, FakeService {
  public let requests: Requests

  public init(_ scenario: Scenario) {
    requests = Requests(
      noun: "fetch", preposition: "of", outcomes: ["snapshot", "error"], scenario: scenario)
  }

  /// Whether fetches fail when the test lets them finish without choosing.
  public var failsFetches: Bool {
    get { requests.defaultOutcome == "error" }
    set { requests.defaultOutcome = newValue ? "error" : "snapshot" }
  }

  /// How many fetches have started.
  public var fetches: Int { requests.started }

  public func latestSnapshot() async throws -> OrderBookSnapshot {
    try await requests.perform(for: "the order book") { number, outcome in
      if outcome == "error" { throw FakeNetworkError(request: number) }
      let snapshot = Self.snapshot(number: number)
      return (snapshot, "returns \(snapshot.testDescription)")
    }
  }

  /// The snapshot that fetch `number` returns.
  public static func snapshot(number: Int) -> OrderBookSnapshot {
    let mid = 100.0 + Double(number) / 100
    return OrderBookSnapshot(
      sequence: number,
      bids: [PriceLevel(price: mid - 0.01, quantity: 5)],
      asks: [PriceLevel(price: mid + 0.01, quantity: 3)]
    )
  }
}
