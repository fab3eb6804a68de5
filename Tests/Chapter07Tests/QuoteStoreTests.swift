import ScheduleExplorer
import Services
import Testing
import WorkbookTestSupport

@testable import Chapter07

@Suite("Chapter 07: the newest answer wins", .testScheduler, .exposesBug)
struct AnswerOrderTests {
  @Test("An older answer that arrives last does not replace a newer one")
  func olderAnswerArrivingLastIsIgnored() async throws {
    let scenario = Scenario()
    let source = FakeQuoteSource(scenario)
    let store = QuoteStore(source: source)

    let older = scenario.start(1, "refresh(ACME)") { try await store.refresh("ACME") }
    try await scenario.settle()
    let newer = scenario.start(1, "refresh(ACME)") { try await store.refresh("ACME") }
    try await scenario.settle()
    // The network answers the newer request first.
    source.release(2)
    _ = try await newer.results()
    source.release(1)
    _ = try await older.results()
    let shown = try await scenario.call("quote(for: ACME)") { await store.quote(for: "ACME") }

    #expect(
      shown == FakeQuoteSource.quote(number: 2),
      scenario.explain(
        """
        Two refreshes of ACME overlapped; the answer to request #2 arrived first and the answer \
        to request #1 arrived last. The store now shows \(shown?.testDescription ?? "nothing"): \
        an older price replaced a newer one. The network answered the two requests out of order, \
        and each refresh stored whatever it got back once it resumed after its `await`.
        """,
        correctly: "quote #2 is shown once it arrives, and still shown after #1's answer."
      )
    )
  }

  @Test(
    "An older answer does not replace a newer one, even while both refreshes are away from the store"
  )
  func olderAnswerDoesNotReplaceANewerOneWhileBothAreAway() async throws {
    let scenario = Scenario()
    let source = FakeQuoteSource(scenario)
    let store = QuoteStore(source: source)

    let older = scenario.start(1, "refresh(ACME)") { try await store.refresh("ACME") }
    try await scenario.settle()
    let newer = scenario.start(1, "refresh(ACME)") { try await store.refresh("ACME") }
    try await scenario.settle()
    // Each refresh, once answered, is held where it next leaves the store: for a step of its own
    // elsewhere, or to return. #2 answers first; then #1; then #2's refresh goes on, then #1's.
    newer.holdWhenTheyLeaveTheActor()
    source.release(2)
    try await scenario.settle()
    older.holdWhenTheyLeaveTheActor()
    source.release(1)
    try await scenario.settle()
    newer.release()
    _ = try await newer.results()
    older.release()
    _ = try await older.results()
    let shown = try await scenario.call("quote(for: ACME)") { await store.quote(for: "ACME") }

    #expect(
      shown == FakeQuoteSource.quote(number: 2),
      scenario.explain(
        """
        Two refreshes of ACME overlapped. Request #2, B's, answered first and then request #1, \
        A's; each refresh left the store once it had its answer, and B's went on first, then \
        A's. The store now shows \(shown?.testDescription ?? "nothing"): an older price \
        replaced a newer one.
        """,
        correctly: "quote #2 is shown once it arrives, and still shown after #1's refresh ends."
      )
    )
  }

  @Test("An older answer stays old after another symbol's refreshes have all ended")
  func olderAnswerStaysOldAfterAnotherSymbolsRefreshesEnd() async throws {
    let scenario = Scenario()
    let source = FakeQuoteSource(scenario)
    let store = QuoteStore(source: source)

    let older = scenario.start(1, "refresh(ACME)") { try await store.refresh("ACME") }
    try await scenario.settle()
    let newer = scenario.start(1, "refresh(ACME)") { try await store.refresh("ACME") }
    try await scenario.settle()
    source.release(2)
    _ = try await newer.results()
    let globex = scenario.start(1, "refresh(GLOBEX)") { try await store.refresh("GLOBEX") }
    try await scenario.settle()
    source.release(3)
    _ = try await globex.results()
    source.release(1)
    _ = try await older.results()
    let shown = try await scenario.call("quote(for: ACME)") { await store.quote(for: "ACME") }

    #expect(
      shown == FakeQuoteSource.quote(number: 2),
      scenario.explain(
        """
        Two refreshes of ACME overlapped, and the answer to request #2 arrived first. Then a \
        refresh of GLOBEX asked and returned, the only one of GLOBEX, and only after that did \
        the answer to ACME's request #1 arrive. The store now shows \
        \(shown?.testDescription ?? "nothing") for ACME.
        """,
        correctly:
          "ACME shows quote #2 once it arrives, and still after GLOBEX's refresh and #1's answer."
      )
    )
  }

  @Test("A newer answer stays shown when a later request fails")
  func newestArrivedAnswerWinsWhenALaterRequestFails() async throws {
    let scenario = Scenario()
    let source = FakeQuoteSource(scenario)
    let store = QuoteStore(source: source)

    var refreshes: [Callers<Void>] = []
    for _ in 1...3 {
      refreshes.append(scenario.start(1, "refresh(ACME)") { try await store.refresh("ACME") })
      try await scenario.settle()
    }
    source.release(2)
    _ = try await refreshes[1].results()
    source.fail(3)
    _ = try await refreshes[2].results()
    source.release(1)
    _ = try await refreshes[0].results()
    let shown = try await scenario.call("quote(for: ACME)") { await store.quote(for: "ACME") }

    #expect(
      shown == FakeQuoteSource.quote(number: 2),
      scenario.explain(
        """
        Three refreshes overlapped: request #2 answered first, #3 failed, and #1 answered last. \
        The store shows \(shown?.testDescription ?? "nothing"); the newest price that arrived \
        was quote #2, and request #3, newer still, brought no price at all.
        """,
        correctly: "the store shows quote #2 from the moment it arrives, and keeps it."
      )
    )
  }
}

@Suite("Chapter 07: what the quote store must keep doing", .testScheduler)
struct QuoteStoreGuardTests {
  // Ten refreshes too: a store that keeps track of only a few of the requests out forgets the
  // oldest, and then drops its answer.
  @Test("Answers that arrive in order are each shown as they arrive", arguments: [2, 10])
  func answersInOrderAreEachShown(refreshes: Int) async throws {
    let scenario = Scenario()
    let source = FakeQuoteSource(scenario)
    let store = QuoteStore(source: source)

    var callers: [Callers<Void>] = []
    for _ in 1...refreshes {
      callers.append(scenario.start(1, "refresh(ACME)") { try await store.refresh("ACME") })
      try await scenario.settle()
    }
    var shown: [Quote?] = []
    for (index, caller) in callers.enumerated() {
      source.release(index + 1)
      _ = try await caller.results()
      shown.append(try await scenario.call("quote(for: ACME)") { await store.quote(for: "ACME") })
    }
    // The first quote that was not shown as it arrived, or 0.
    let missed = (1...refreshes).first { shown[$0 - 1] != FakeQuoteSource.quote(number: $0) } ?? 0
    let stillOut =
      switch refreshes - missed {
      case 0: "last"
      case 1: "while request #\(refreshes) was still out"
      default: "while requests #\(missed + 1) to #\(refreshes) were still out"
      }

    #expect(
      missed == 0,
      scenario.explain(
        """
        \(refreshes) refreshes of ACME overlapped, and their answers arrived in the order they \
        were asked for. Quote #\(missed) arrived \(stillOut); it was the newest price there \
        was, yet the store showed \(shown[max(missed, 1) - 1]?.testDescription ?? "nothing").
        """,
        correctly: "each quote is shown as it arrives, from #1 to #\(refreshes)."
      )
    )
  }

  @Test("A refresh that has returned shows its price, even before other work has run")
  func returnedRefreshShowsItsPrice() async throws {
    let scenario = Scenario()
    let source = FakeQuoteSource(scenario)
    let store = QuoteStore(source: source)

    let refresh = scenario.start(1, "refresh(ACME)") { try await store.refresh("ACME") }
    try await scenario.settle()
    // Once the answer is on its way back, a task the store starts runs late, as it may on a busy
    // pool of threads.
    scenario.holdNewTasks()
    source.release(1)
    try await scenario.settle()
    let returned = refresh.allFinished
    let shown = try await scenario.call("quote(for: ACME)") { await store.quote(for: "ACME") }
    scenario.letHeldTasksRun()
    _ = try await refresh.results()

    #expect(
      !returned || shown == FakeQuoteSource.quote(number: 1),
      scenario.explain(
        """
        A's refresh of ACME returned, and right after, before a task the store had started since \
        could run, the store showed \(shown?.testDescription ?? "nothing"): whoever awaits \
        refresh(ACME) takes its return to mean that the price it brought is shown.
        """,
        correctly: "once refresh(ACME) has returned, quote #1 is shown."
      )
    )
  }

  @Test("Each symbol keeps its own order")
  func symbolsAreOrderedIndependently() async throws {
    let scenario = Scenario()
    let source = FakeQuoteSource(scenario)
    let store = QuoteStore(source: source)

    let acme = scenario.start(1, "refresh(ACME)") { try await store.refresh("ACME") }
    try await scenario.settle()
    let globex = scenario.start(1, "refresh(GLOBEX)") { try await store.refresh("GLOBEX") }
    try await scenario.settle()
    source.release(2)
    _ = try await globex.results()
    source.release(1)
    _ = try await acme.results()
    let shownACME = try await scenario.call("quote(for: ACME)") { await store.quote(for: "ACME") }

    #expect(
      shownACME == FakeQuoteSource.quote(number: 1, symbol: "ACME"),
      scenario.explain(
        "a GLOBEX answer must not make an ACME answer look old",
        correctly: "ACME shows its only answer, quote #1."
      )
    )
  }

  @Test("A request sent after an older one failed is newer than every request before it")
  func requestSentAfterAFailureIsTheNewest() async throws {
    try await expectTheNewestShown(afterTheFirstRequest: "fails")
  }

  @Test("A request sent after an older one answered is newer than every request before it")
  func requestSentAfterAnAnswerIsTheNewest() async throws {
    try await expectTheNewestShown(afterTheFirstRequest: "answers")
  }

  @Test("A request sent after the newest one failed is newer than every request before it")
  func requestSentAfterTheNewestFailedIsTheNewest() async throws {
    let scenario = Scenario()
    let source = FakeQuoteSource(scenario)
    let store = QuoteStore(source: source)

    let first = scenario.start(1, "refresh(ACME)") { try await store.refresh("ACME") }
    try await scenario.settle()
    let second = scenario.start(1, "refresh(ACME)") { try await store.refresh("ACME") }
    try await scenario.settle()
    source.fail(2)
    _ = try await second.results()
    let third = scenario.start(1, "refresh(ACME)") { try await store.refresh("ACME") }
    try await scenario.settle()
    source.release(1)
    _ = try await first.results()
    source.release(3)
    _ = try await third.results()
    let shown = try await scenario.call("quote(for: ACME)") { await store.quote(for: "ACME") }

    #expect(
      shown == FakeQuoteSource.quote(number: 3),
      scenario.explain(
        """
        Requests #1 and #2 for ACME went out, and #2, the newest, failed. Then request #3 went \
        out, and #1 and #3 answered in the order they were sent, #3 last. The store shows \
        \(shown?.testDescription ?? "nothing"), though the newest request whose answer arrived \
        is #3.
        """,
        correctly: "quote #1 is shown when it arrives, then quote #3."
      )
    )
  }

  @Test("Of three requests out, the second's answer stays shown when the third fails")
  func secondOfThreeStaysWhenTheThirdFails() async throws {
    let scenario = Scenario()
    let source = FakeQuoteSource(scenario)
    let store = QuoteStore(source: source)

    var refreshes: [Callers<Void>] = []
    for _ in 1...3 {
      refreshes.append(scenario.start(1, "refresh(ACME)") { try await store.refresh("ACME") })
      try await scenario.settle()
    }
    source.release(1)
    _ = try await refreshes[0].results()
    source.release(2)
    _ = try await refreshes[1].results()
    let afterTheSecond = try await scenario.call("quote(for: ACME)") {
      await store.quote(for: "ACME")
    }
    source.fail(3)
    _ = try await refreshes[2].results()
    let atTheEnd = try await scenario.call("quote(for: ACME)") { await store.quote(for: "ACME") }

    #expect(
      afterTheSecond == FakeQuoteSource.quote(number: 2)
        && atTheEnd == FakeQuoteSource.quote(number: 2),
      scenario.explain(
        """
        Requests #1, #2 and #3 for ACME went out; #1 answered, then #2, and then #3 failed. \
        Once #2 had answered, the store showed \(afterTheSecond?.testDescription ?? "nothing"), \
        and at the end \(atTheEnd?.testDescription ?? "nothing"): #2 is the newest request whose \
        answer arrived, from the moment it arrives.
        """,
        correctly: "quote #2 is shown when it arrives, and stays when #3 fails."
      )
    )
  }

  /// Requests #1 and #2 go out; #1 fails or answers; then #3 goes out, and #2 and #3 answer in
  /// the order they were sent. The store must end on quote #3.
  private func expectTheNewestShown(afterTheFirstRequest ending: String) async throws {
    let scenario = Scenario()
    let source = FakeQuoteSource(scenario)
    let store = QuoteStore(source: source)

    let first = scenario.start(1, "refresh(ACME)") { try await store.refresh("ACME") }
    try await scenario.settle()
    let second = scenario.start(1, "refresh(ACME)") { try await store.refresh("ACME") }
    try await scenario.settle()
    if ending == "fails" { source.fail(1) } else { source.release(1) }
    _ = try await first.results()
    let third = scenario.start(1, "refresh(ACME)") { try await store.refresh("ACME") }
    try await scenario.settle()
    source.release(2)
    _ = try await second.results()
    source.release(3)
    _ = try await third.results()
    let shown = try await scenario.call("quote(for: ACME)") { await store.quote(for: "ACME") }

    #expect(
      shown == FakeQuoteSource.quote(number: 3),
      scenario.explain(
        """
        Requests #1 and #2 for ACME went out, and #1 \(ending). Then request #3 went out, and \
        #2 and #3 answered in the order they were sent, #3 last. The store shows \
        \(shown?.testDescription ?? "nothing"), though the newest request whose answer arrived \
        is #3.
        """,
        correctly: "quote #2 is shown when it arrives, then quote #3."
      )
    )
  }
}

@Suite("Chapter 07: every interleaving", .testScheduler, .exposesBug)
struct QuoteStoreExplorationTests {
  @Test(
    "Overlapping refreshes, answered in every order, at most one failing or lower, always show the newest answer"
  )
  func everyInterleavingKeepsThePromise() async {
    await Exploration(
      // Three refreshes of one symbol: the fewest that let an answer be older than the one shown
      // and newer than one dropped. Symbols apart are the scripted tests' to check.
      QuoteStoreWorld.self, calls: [.refresh("ACME"), .refresh("ACME"), .refresh("ACME")],
      // An answer reaches the store only when its caller resumes, so holding a caller in that gap
      // is, to the store, the same as a slower answer; the exploration skips it.
      bounds: ExplorationBounds(holds: 0)
    ).run()
  }
}

/// The store in a world of its own, with the promise it keeps in every schedule.
struct QuoteStoreWorld: ChapterWorld {
  struct Call: ExploredCall {
    let key: String?

    static func refresh(_ symbol: String) -> Self { Self(key: symbol) }

    var description: String { "refresh(\(key!))" }
  }

  let source: FakeQuoteSource
  let store: QuoteStore

  init(_ scenario: Scenario) {
    source = FakeQuoteSource(scenario)
    store = QuoteStore(source: source)
  }

  var fakes: [any FakeService] { [source] }

  func perform(_ call: Call) async throws -> any Sendable {
    try await store.refresh(call.key!)
  }

  /// For every symbol, the quote shown is the answer to the newest request whose answer has
  /// arrived, whatever order the answers came in and whether its price rose or fell; a failed
  /// request replaces nothing; and every refresh that has returned sent a request of its own.
  func checkPromise(_ moment: Moment<Self>) async {
    guard !moment.someoneIsHeld else { return }
    let records = source.requests.records
    for caller in moment.callers where caller.hasFinished {
      moment.expect(
        records.contains { $0.caller == caller.name }, "every refresh asks",
        """
        Caller \(caller.name)'s refresh returned without sending a request of its own, so \
        whatever it showed was asked for before it began.
        """)
    }
    for symbol in Set(moment.keyed.map(\.key)).sorted() {
      let arrived = records.filter { record in
        record.key == symbol && !record.threw
          && moment.callers.contains { $0.name == record.caller && $0.hasFinished }
      }
      let newest = arrived.max { $0.number < $1.number }
      let expected = newest.map {
        FakeQuoteSource.quote(number: $0.number, symbol: symbol, lower: $0.outcome == "lower")
      }
      let shown = await store.quote(for: symbol)
      moment.expect(
        shown == expected, "the newest answer is shown",
        """
        \(symbol) shows \(shown.map(describe) ?? "nothing"), but \
        \(newest.map { "the newest request whose answer has arrived is request #\($0.number), which answered \(describe(expected!))" } ?? "no answer for \(symbol) has arrived yet").
        """)
    }
  }
}
