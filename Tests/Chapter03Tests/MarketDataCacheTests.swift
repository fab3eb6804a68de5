import Services
import Testing
import WorkbookTestSupport

@testable import Chapter03

@Suite("Chapter 03: one fetch for every reader", .exposesBug)
struct MarketDataFetchTests {
  @Test("Readers who ask at once share one fetch")
  func readersAskingAtOnceShareOneFetch() async throws {
    let scenario = Scenario()
    let feed = FakeMarketDataFeed(scenario)
    let cache = MarketDataCache(feed: feed)

    let readers = scenario.start(4, "snapshot()") { try await cache.snapshot() }
    try await scenario.settle()
    feed.open()
    let results = try await readers.results()

    #expect(
      feed.fetches == 1,
      scenario.explain(
        """
        4 readers asked for the order book at once and \(feed.fetches) fetches went to the \
        exchange; expected 1. While the first fetch was suspended at \
        `await feed.latestSnapshot()`, `cached` was still nil, so every reader fetched. Model \
        the fetch in progress as a state of its own. Readers got: \(describe(results)).
        """,
        correctly: "only fetch #1 starts; B, C and D wait for it, and all four get snapshot #1."
      )
    )
    #expect(
      results.allSatisfy { $0.value == FakeMarketDataFeed.snapshot(number: 1) },
      "every reader should get snapshot #1; \(describe(results))"
    )
  }

  @Test("A reader who asks just as the fetch finishes joins it instead of fetching again")
  func readerArrivingAsTheFetchFinishesJoinsIt() async throws {
    let scenario = Scenario()
    let feed = FakeMarketDataFeed(scenario)
    let cache = MarketDataCache(feed: feed)

    let results = try await scenario.callInTheGap("snapshot()", answering: feed) {
      try await cache.snapshot()
    }

    #expect(
      feed.fetches == 1,
      scenario.explain(
        """
        Reader B asked after fetch #1 had finished but before reader A had resumed to store it, \
        and \(feed.fetches) fetches went to the exchange; expected 1. Until the snapshot is \
        stored, the cache must remember that a fetch is under way. Readers got: \
        \(describe(results)).
        """,
        correctly: "B joins fetch #1 and gets snapshot #1 without a fetch of its own."
      )
    )
  }
}

@Suite("Chapter 03: what the cache must keep doing")
struct MarketDataGuardTests {
  @Test("A ready snapshot costs no second fetch")
  func readySnapshotCostsNoFetch() async throws {
    let scenario = Scenario()
    let feed = FakeMarketDataFeed(scenario)
    let cache = MarketDataCache(feed: feed)
    feed.open()

    let first = try await scenario.call("snapshot()") { try await cache.snapshot() }
    let second = try await scenario.call("snapshot()") { try await cache.snapshot() }

    #expect(first == second, "the second read should return the cached snapshot")
    #expect(
      feed.fetches == 1, "two reads, one after the other, made \(feed.fetches) fetches; expected 1")
  }

  @Test("Every reader waiting on a failed fetch gets the error, and the next read fetches again")
  func failureReachesEveryReaderAndIsNotKept() async throws {
    let scenario = Scenario()
    let feed = FakeMarketDataFeed(scenario)
    let cache = MarketDataCache(feed: feed)

    feed.failsFetches = true
    let readers = scenario.start(3, "snapshot()") { try await cache.snapshot() }
    try await scenario.settle()
    feed.open()
    let results = try await readers.results()
    #expect(
      results.allSatisfy { $0.error is FakeNetworkError },
      "every reader waiting for a failed fetch should get its error; \(describe(results))"
    )

    feed.failsFetches = false
    let fetchesBefore = feed.fetches
    let retried = try await scenario.call("snapshot()") { try await cache.snapshot() }
    #expect(
      feed.fetches == fetchesBefore + 1,
      "after the failure, the next read should fetch again instead of reusing the failed fetch"
    )
    #expect(retried == FakeMarketDataFeed.snapshot(number: fetchesBefore + 1))
  }
}

@Suite("Chapter 03: every interleaving", .exposesBug)
struct MarketDataExplorationTests {
  @Test("Three readers, in every order and with every answer, share one fetch and agree")
  func everyInterleavingKeepsThePromise() async {
    let read = MethodCall("snapshot()", key: "the order book")
    await Exploration(MarketDataWorld.self, calls: [read, read, read]).run()
  }
}

/// The cache in a world of its own, with the promise it keeps in every schedule.
struct MarketDataWorld: ExplorationWorld {
  let feed: FakeMarketDataFeed
  let cache: MarketDataCache

  init(_ scenario: Scenario) {
    feed = FakeMarketDataFeed(scenario)
    cache = MarketDataCache(feed: feed)
  }

  var fakes: [any FakeService] { [feed] }

  func perform(_ call: MethodCall) async throws -> any Sendable {
    try await cache.snapshot()
  }

  /// Readers who ask while a fetch runs share it and get the same snapshot; a snapshot that
  /// arrived costs no fetch; a failed fetch reaches only the readers who were waiting for it.
  func checkPromise(_ moment: Moment<Self>) async {
    moment.expectOneRequestAtATime(per: feed.requests, keepsSuccess: true, succeeded: { !$0.threw })
    moment.expectAgreement(on: OrderBookSnapshot.self)
    moment.expectKeepsWhatItReturned(feed.requests)
    moment.expectFailuresAreFresh(feed.requests, failed: \.threw)
  }
}
