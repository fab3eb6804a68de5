import ScheduleExplorer
import Services
import Testing
import WorkbookTestSupport

@testable import Chapter03

@Suite("Chapter 03: the book changes while a fetch is out", .testScheduler, .exposesBug)
struct InvalidationTests {
  @Test("A snapshot fetched before invalidate() is not kept after it")
  func snapshotFetchedBeforeInvalidationIsNotKept() async throws {
    let scenario = Scenario()
    let feed = FakeMarketDataFeed(scenario)
    let cache = MarketDataCache(feed: feed)

    let reader = scenario.start(1, "snapshot()") { try await cache.snapshot() }
    try await scenario.settle()
    try await scenario.call("invalidate()") { await announceNewBook(feed, cache) }
    feed.open()
    _ = try await reader.results()
    let later = try await scenario.call("snapshot()") { try await cache.snapshot() }

    let whatHappened =
      feed.fetches < 2
      ? """
      Fetch #1 was still out when invalidate() said the book had changed. Once it returned, a \
      reader who asked afterwards got \(later.testDescription) without a fetch of its own: the \
      cache kept a book that invalidate() had already declared old. Caller A was suspended at \
      `await fetch.value` when invalidate() ran, and what it did on resuming did not take that \
      into account.
      """
      : """
      Fetch #1 was still out when invalidate() said the book had changed. Once it returned, a \
      reader who asked afterwards got \(later.testDescription), and \(feed.fetches) fetches went \
      to the exchange in all, where one for the old book and one for the new are enough.
      """
    #expect(
      feed.fetches == 2,
      scenario.explain(
        whatHappened,
        correctly:
          "A may still get snapshot #1, which it asked for before the change; C gets a newer one."
      )
    )
  }

  @Test("A reader after invalidate() waits for the newer fetch, not the older one")
  func readerAfterInvalidationGetsTheNewerFetch() async throws {
    let scenario = Scenario()
    let feed = FakeMarketDataFeed(scenario)
    let cache = MarketDataCache(feed: feed)

    let first = scenario.start(1, "snapshot()") { try await cache.snapshot() }
    try await scenario.settle()
    try await scenario.call("invalidate()") { await announceNewBook(feed, cache) }
    let second = scenario.start(1, "snapshot()") { try await cache.snapshot() }
    try await scenario.settle()
    // Fetch #1 answers, and whatever its reader does next happens, while fetch #2 is still out.
    // The promise lets that reader get the old book, or ask again; it demands neither.
    feed.release(1)
    try await scenario.settle()
    let third = scenario.start(1, "snapshot()") { try await cache.snapshot() }
    try await scenario.settle()
    feed.open()
    let results = try await first.results() + second.results() + third.results()

    #expect(
      results[2].value == FakeMarketDataFeed.snapshot(number: 2) && feed.fetches == 2,
      scenario.explain(
        """
        After invalidate(), reader D asked while fetch #2, started for the new book, was still \
        out, and \(results[2]), with \(feed.fetches) fetches in all. Fetch #1, started \
        before the change, had returned in the meantime, and its reader's resumption decided \
        what D would find. Readers got: \(describe(results)).
        """,
        correctly: "D waits for fetch #2 and gets snapshot #2; there are two fetches in all."
      )
    )
  }

  @Test("A fetch that was out through two changes of book is not kept either")
  func fetchOutThroughTwoChangesIsNotKept() async throws {
    let scenario = Scenario()
    let feed = FakeMarketDataFeed(scenario)
    let cache = MarketDataCache(feed: feed)

    let first = scenario.start(1, "snapshot()") { try await cache.snapshot() }
    try await scenario.settle()
    try await scenario.call("invalidate()") { await announceNewBook(feed, cache) }
    let second = scenario.start(1, "snapshot()") { try await cache.snapshot() }
    try await scenario.settle()
    try await scenario.call("invalidate()") { await announceNewBook(feed, cache) }
    feed.release(1)
    try await scenario.settle()
    let third = scenario.start(1, "snapshot()") { try await cache.snapshot() }
    try await scenario.settle()
    feed.open()
    let results = try await first.results() + second.results() + third.results()
    let latest = FakeMarketDataFeed.snapshot(number: 3)

    #expect(
      results[2].value.map { $0.sequence >= 3 } ?? false,
      scenario.explain(
        """
        The book changed twice while fetch #1 was out: once before reader C asked, and again \
        while C's fetch was out. Fetch #1 then returned, and after that reader E asked: \
        \(results[2]), though E asked after both changes. Readers got: \(describe(results)).
        """,
        correctly: "E gets \(latest.testDescription), the book the second change announced."
      )
    )
  }

  @Test("A fetch out through a change is not kept for being newer than the book thrown away")
  func fetchOutThroughAChangeIsNotKeptForBeingNewer() async throws {
    let scenario = Scenario()
    let feed = FakeMarketDataFeed(scenario)
    let cache = MarketDataCache(feed: feed)

    let first = scenario.start(1, "snapshot()") { try await cache.snapshot() }
    try await scenario.settle()
    feed.release(1)
    _ = try await first.results()
    try await scenario.call("invalidate()") { await announceNewBook(feed, cache) }
    let second = scenario.start(1, "snapshot()") { try await cache.snapshot() }
    try await scenario.settle()
    try await scenario.call("invalidate()") { await announceNewBook(feed, cache) }
    feed.release(2)
    try await scenario.settle()
    let third = scenario.start(1, "snapshot()") { try await cache.snapshot() }
    try await scenario.settle()
    feed.open()
    let results = try await first.results() + second.results() + third.results()
    let latest = FakeMarketDataFeed.snapshot(number: 3)

    #expect(
      results[2].value.map { $0.sequence >= 3 } ?? false,
      scenario.explain(
        """
        Reader A's book #1 was cached; then the book changed, reader C's fetch #2 went out, and \
        the book changed again before fetch #2 returned book #2. Reader E asked after that: \
        \(results[2]). Book #2 is newer than the book the first change threw away, and older than \
        the one the second change announced. Readers got: \(describe(results)).
        """,
        correctly: "E gets \(latest.testDescription), the book the second change announced."
      )
    )
  }

  @Test("An older fetch that fails does not undo the newer one")
  func failingOlderFetchLeavesTheNewerOneAlone() async throws {
    let scenario = Scenario()
    let feed = FakeMarketDataFeed(scenario)
    let cache = MarketDataCache(feed: feed)

    let first = scenario.start(1, "snapshot()") { try await cache.snapshot() }
    try await scenario.settle()
    try await scenario.call("invalidate()") { await announceNewBook(feed, cache) }
    let second = scenario.start(1, "snapshot()") { try await cache.snapshot() }
    try await scenario.settle()
    feed.requests.release(1, as: "error")
    try await scenario.settle()
    let third = scenario.start(1, "snapshot()") { try await cache.snapshot() }
    try await scenario.settle()
    feed.open()
    let results = try await first.results() + second.results() + third.results()

    #expect(
      feed.fetches == 2,
      scenario.explain(
        """
        Fetch #1, started before invalidate(), failed while fetch #2 for the new book was still \
        out. Reader D asked after that and \(feed.fetches) fetches went out in all: the failure of \
        the old fetch made the cache forget that fetch #2 was running. Readers got: \
        \(describe(results)).
        """,
        correctly: "D waits for fetch #2 with C; two fetches in all."
      )
    )
  }
}

@Suite("Chapter 03: what the cache must keep doing", .testScheduler)
struct MarketDataGuardTests {
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
      feed.fetches == 1
        && results.allSatisfy { $0.value == FakeMarketDataFeed.snapshot(number: 1) },
      scenario.explain(
        """
        4 readers asked for the order book at once: \(feed.fetches) fetches went to the \
        exchange, and the readers got \(describe(results)).
        """,
        correctly: "only fetch #1 starts; B, C and D wait for it, and all four get snapshot #1."
      )
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
        Reader B asked after fetch #1 had returned but before reader A had resumed to store it, \
        and \(feed.fetches) fetches went to the exchange. Readers got: \(describe(results)).
        """,
        correctly: "B joins fetch #1 and gets snapshot #1 without a fetch of its own."
      )
    )
  }

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

  @Test(
    "A snapshot whose reader was away from the cache when invalidate() ran is not kept after it")
  func snapshotWhoseReaderWasAwayIsNotKept() async throws {
    let scenario = Scenario()
    let feed = FakeMarketDataFeed(scenario)
    let cache = MarketDataCache(feed: feed)

    let reader = scenario.start(1, "snapshot()") { try await cache.snapshot() }
    try await scenario.settle()
    // Once fetch #1 has answered, A is held where it next leaves the cache: for a step of its own
    // elsewhere, in the middle of its work, or to return. The book changes meanwhile.
    reader.holdWhenTheyLeaveTheActor()
    feed.release(1)
    try await scenario.settle()
    try await scenario.call("invalidate()") { await announceNewBook(feed, cache) }
    reader.release()
    _ = try await reader.results()
    feed.open()
    let later = try await scenario.call("snapshot()") { try await cache.snapshot() }

    #expect(
      feed.fetches == 2,
      scenario.explain(
        """
        Fetch #1 had answered, and caller A had left the cache, not yet returned, when \
        invalidate() said the book had changed. A reader who asked after A had returned got \
        \(later.testDescription), after \(feed.fetches) fetch\(feed.fetches == 1 ? "" : "es") in \
        all: the cache kept a book that invalidate() had already declared old.
        """,
        correctly: "A may still get snapshot #1; the reader after invalidate() gets a newer one."
      )
    )
  }

  @Test("A reader still handling its failed fetch does not undo a newer one")
  func readerHandlingAFailureDoesNotUndoANewerFetch() async throws {
    let scenario = Scenario()
    let feed = FakeMarketDataFeed(scenario)
    let cache = MarketDataCache(feed: feed)

    feed.failsFetches = true
    let reader = scenario.start(1, "snapshot()") { try await cache.snapshot() }
    try await scenario.settle()
    // A hears of the failure, and whatever it then hands to a task of its own starts late, as it
    // may on a busy pool of threads; meanwhile the book changes, and another reader comes.
    reader.hold()
    feed.release(1)
    try await reader.waitUntilReadyToResume()
    scenario.holdNewTasks()
    reader.release()
    try await scenario.settle()
    try await scenario.call("invalidate()") { await announceNewBook(feed, cache) }
    feed.failsFetches = false
    let newer = scenario.start(1, "snapshot()") { try await cache.snapshot() }
    try await scenario.settle()
    scenario.letHeldTasksRun()
    try await scenario.settle()
    let later = scenario.start(1, "snapshot()") { try await cache.snapshot() }
    try await scenario.settle()
    let fetchesOut = feed.fetches
    feed.open()
    let results = try await reader.results() + newer.results() + later.results()

    #expect(
      fetchesOut == 2,
      scenario.explain(
        """
        Fetch #1 failed, and caller A had not finished with the failure when the book changed \
        and caller C read, starting fetch #2. Caller D then asked while fetch #2 was out; once \
        D's call had settled, \(fetchesOut) fetches had gone to the exchange. Callers got: \
        \(describe(results)).
        """,
        correctly: "A gets the error; C and D share fetch #2."
      )
    )
  }

  @Test("A reader who gives up while its fetch runs leaves the snapshot for the next reader")
  func aReaderWhoGivesUpLeavesTheSnapshot() async throws {
    let scenario = Scenario()
    let feed = FakeMarketDataFeed(scenario)
    let cache = MarketDataCache(feed: feed)

    let first = scenario.start(1, "snapshot()") { try await cache.snapshot() }
    try await scenario.settle()
    let joiner = scenario.start(1, "snapshot()") { try await cache.snapshot() }
    try await scenario.settle()
    first.cancel()
    try await scenario.settle()
    feed.open()
    let results = try await first.results() + joiner.results()
    // A cache may call its fetch off when the reader who started it gives up, if B then fetches
    // again; then no snapshot arrived, and the next reader fetches again too.
    let arrived = feed.requests.records.contains { $0.isAnswered && !$0.threw }
    let fetches = feed.fetches
    let next = try await scenario.call("snapshot()") { try await cache.snapshot() }

    #expect(
      results[1].value != nil,
      scenario.explain(
        """
        A started fetch #1 and B joined it; then A gave up, and B, who did not, ended so: \
        \(results[1]).
        """,
        correctly: "B gets a snapshot: A's giving up ends A's read, not B's."
      )
    )
    #expect(
      !arrived || feed.fetches == fetches,
      scenario.explain(
        """
        A started fetch #1 and B joined it; then A gave up, and fetch #1 brought snapshot #1 \
        (\(describe(results))). The book did not change, yet the next reader started fetch \
        #\(feed.fetches) and got \(next.testDescription).
        """,
        correctly: "the next reader gets snapshot #1 without a fetch."
      )
    )
  }

  @Test("After invalidate(), the next reader fetches a fresh book")
  func invalidationMakesTheNextReaderFetch() async throws {
    let scenario = Scenario()
    let feed = FakeMarketDataFeed(scenario)
    let cache = MarketDataCache(feed: feed)
    feed.open()

    _ = try await scenario.call("snapshot()") { try await cache.snapshot() }
    try await scenario.call("invalidate()") { await announceNewBook(feed, cache) }
    let fresh = try await scenario.call("snapshot()") { try await cache.snapshot() }

    #expect(
      fresh == FakeMarketDataFeed.snapshot(number: 2),
      "after invalidate(), the next read should fetch again; it got \(fresh.testDescription)")
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
    // Any error will do: a cache may wrap the fetch's error in one of its own.
    #expect(
      results.allSatisfy { $0.error != nil },
      "every reader waiting for a failed fetch should get an error; \(describe(results))"
    )

    feed.failsFetches = false
    let fetchesBefore = feed.fetches
    let retried = try await scenario.call("snapshot()") { try await cache.snapshot() }
    #expect(
      feed.fetches == fetchesBefore + 1,
      "after the failure, the next read should fetch again; it made \(feed.fetches - fetchesBefore) fetches"
    )
    #expect(
      retried == FakeMarketDataFeed.snapshot(number: feed.currentBook),
      "after the failure, the next read should bring the exchange's book; it got \(retried.testDescription)"
    )
  }

  @Test("After a failed fetch and a change of book, the next snapshot is kept as before")
  func snapshotIsKeptAfterAFailureAndAChange() async throws {
    let scenario = Scenario()
    let feed = FakeMarketDataFeed(scenario)
    let cache = MarketDataCache(feed: feed)
    feed.open()

    feed.failsFetches = true
    _ = try? await scenario.call("snapshot()") { try await cache.snapshot() }
    feed.failsFetches = false
    _ = try await scenario.call("snapshot()") { try await cache.snapshot() }
    try await scenario.call("invalidate()") { await announceNewBook(feed, cache) }
    let fresh = try await scenario.call("snapshot()") { try await cache.snapshot() }
    let again = try await scenario.call("snapshot()") { try await cache.snapshot() }

    #expect(
      feed.fetches == 3 && again == fresh,
      """
      a failed fetch, a read, a change of book and two more reads, one after the other, made \
      \(feed.fetches) fetches, and the last two reads got \(fresh.testDescription) and \
      \(again.testDescription); expected 3 fetches: the last read gets the snapshot the one \
      before it fetched
      """
    )
  }
}

@Suite("Chapter 03: every interleaving", .testScheduler, .exposesBug)
struct MarketDataExplorationTests {
  @Test("Three reads and a change of book at any point between them never keep an old book")
  func everyInterleavingKeepsThePromise() async {
    let read = MethodCall("snapshot()", key: "the order book")
    await Exploration(
      MarketDataWorld.self, calls: [read, read, MethodCall("invalidate()"), read]
    ).run()
  }
}

/// The cache in a world of its own, with the promise it keeps in every schedule.
struct MarketDataWorld: ChapterWorld {
  let scenario: Scenario
  let feed: FakeMarketDataFeed
  let cache: MarketDataCache

  init(_ scenario: Scenario) {
    self.scenario = scenario
    feed = FakeMarketDataFeed(scenario)
    cache = MarketDataCache(feed: feed)
  }

  var fakes: [any FakeService] { [feed] }

  func perform(_ call: MethodCall) async throws -> any Sendable {
    if call.key == nil {
      await announceNewBook(feed, cache)
      return ()
    }
    return try await cache.snapshot()
  }

  /// Between two changes of book, readers who ask while a fetch runs share it, and a snapshot
  /// that arrived costs no fetch; a reader who asks after invalidate() has returned gets the book
  /// it announced or a later one; a failure reaches only readers who were waiting for that fetch.
  ///
  /// Once the schedule has ended, one more reader asks: what the cache kept is what it hands out
  /// next, so a cache left holding an old book, or having lost the snapshot that arrived, shows it
  /// then, even where no reader of the schedule asked late enough to see it.
  func checkPromise(_ moment: Moment<Self>) async {
    var next: CallerRecord?
    if moment.isEnd && !moment.someoneIsHeld {
      let reader = scenario.start(1, "snapshot()") { try await cache.snapshot() }
      _ = await scenario.wait { reader.allFinished }
      next = scenario.callers.last
    }
    let changes = moment.callers.filter { moment.call(of: $0).key == nil }
    /// How many changes of book came before a fetch that started at `time`. invalidate() never
    /// suspends, and it is called at a settled moment, when nothing else is ready to run, so a
    /// fetch that starts after the call starts after the change, even if it starts before the
    /// call has returned: a reader whose fetch invalidate() called off may ask again at once.
    func round(at time: Int) -> Int { changes.count { $0.startedAt < time } }
    /// A reader who asked before a change may still get the book it was waiting for, so a fetch
    /// made for it may belong to either book: one that started after the change began, because
    /// the read reached the book only then (behind a held caller, in an actor that keeps the book
    /// for the cache, say), is the cache's to count, and is compared with no other fetch.
    func straddles(_ fetch: Requests.Record) -> Bool {
      let asked = moment.callers.first { $0.name == fetch.caller }?.startedAt ?? fetch.startedAt
      return changes.contains { asked < $0.startedAt && $0.startedAt < fetch.startedAt }
    }
    /// The newest book announced by a change that had returned before `time`. Each change
    /// publishes its book as it starts, so the changes, in the order they started, announced the
    /// published books in order.
    let announced = zip(changes.sorted { $0.startedAt < $1.startedAt }, feed.publishedBooks)
    func newestAnnounced(before time: Int) -> Int? {
      announced.filter { ($0.0.finishedAt ?? .max) < time }.map(\.1).max()
    }
    moment.expectOneRequestAtATime(
      per: feed.requests, keepsSuccess: true, succeeded: { !$0.threw },
      round: { straddles($0) ? -$0.number : round(at: $0.startedAt) })
    moment.expectFailuresAreFresh(feed.requests, failed: \.threw)
    for reader in moment.keyed.map(\.caller) + (next.map { [$0] } ?? []) {
      guard let snapshot = reader.value(as: OrderBookSnapshot.self),
        let book = newestAnnounced(before: reader.startedAt)
      else { continue }
      moment.expect(
        snapshot.sequence >= book, "no old book after a change",
        """
        Caller \(reader.name)\(reader.name == next?.name ? ", who read once more when every call had returned," : "") asked after invalidate() had announced \
        \(FakeMarketDataFeed.snapshot(number: book).testDescription), and got \
        \(snapshot.testDescription), a book the exchange had already replaced.
        """)
    }
    for reader in moment.keyed.map(\.caller) where !reader.wasCancelled {
      moment.expect(
        !moment.isCancellation(reader.error), "a read ends cancelled only if its reader gave up",
        """
        Caller \(reader.name) did not give up, yet its read ended with \(moment.describeResult(reader)): \
        a reader who asked for a book gets one, or the failure of a fetch.
        """)
    }
  }
}

/// The exchange publishes a new book, then tells the cache that its book is old.
func announceNewBook(_ feed: FakeMarketDataFeed, _ cache: MarketDataCache) async {
  feed.publishNewBook()
  await cache.invalidate()
}
