import Services

/// A ``MarketDataFeed`` whose fetches wait until the test opens its gate.
///
/// Fetch number *n* returns the snapshot with sequence number *n*, so a test can tell which fetch
/// a reader's snapshot came from.
public final class FakeMarketDataFeed: MarketDataFeed {
  private let requests: Requests
  private let failing = Locked(false)

  public init(_ scenario: Scenario) {
    requests = Requests(noun: "fetch", scenario: scenario)
  }

  /// Whether fetches that start from now on fail; those already started keep their outcome.
  public var failsFetches: Bool {
    get { failing.value }
    set { failing.withLock { $0 = newValue } }
  }

  /// How many fetches have started.
  public var fetches: Int { requests.started }

  /// How many fetches have finished, successfully or not.
  public var finishedFetches: Int { requests.finished }

  /// Lets every waiting fetch finish, and every later one finish at once.
  public func open() {
    requests.open()
  }

  public func latestSnapshot() async throws -> OrderBookSnapshot {
    let fails = failsFetches
    let number = try await requests.perform(for: "the order book")
    if fails {
      requests.recordOutcome(of: number, "fails")
      throw FakeNetworkError(request: number)
    }
    let snapshot = Self.snapshot(number: number)
    requests.recordOutcome(of: number, "returns \(snapshot.testDescription)")
    return snapshot
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
