import ScheduleExplorer
import Services

/// A ``MarketDataFeed`` whose fetches wait until the test opens its gate.
///
/// Fetch number *n* returns the snapshot with sequence number *n*, so a test can tell which fetch
/// a reader's snapshot came from.
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
