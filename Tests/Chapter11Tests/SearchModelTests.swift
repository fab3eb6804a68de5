import Foundation
import ScheduleExplorer
import Services
import Testing
import WorkbookTestSupport

@testable import Chapter11

/// A search screen's model with its fakes, in a scenario that watches the main actor.
private struct Screen {
  let scenario = Scenario(watchesTheMainActor: true, subject: "model")
  let service: FakeSearchService
  let decoder: FakeSearchDecoder
  let model: SearchModel

  init() {
    service = FakeSearchService(scenario)
    decoder = FakeSearchDecoder(scenario)
    model = SearchModel(service: service, decoder: decoder)
  }

  /// Starts a search for `query` the way the view does, in a task of its own.
  func type(_ query: String) -> Callers<Void> {
    scenario.start(1, "search(for: \(query))") { await model.search(for: query) }
  }

  /// Waits until the search for `query` has reached the backend.
  func waitForTheSearch(for query: String) async throws {
    let asked = await scenario.waitUntil { service.request(for: query) != nil }
    try #require(asked, "the search for \"\(query)\" should reach the backend")
  }

  /// What the screen lists after a search for `first` that finds its hits, then one for `second`
  /// whose answer ends as `outcome`.
  func hitsAfterASearchFor(_ first: String, thenOneFor second: String, as outcome: String)
    async throws -> [SearchHit]
  {
    service.open()
    _ = try await type(first).results()
    service.close()
    let next = type(second)
    try await waitForTheSearch(for: second)
    service.requests.release(2, as: outcome)
    _ = try await next.results()
    return await model.hits
  }
}

@Suite("Chapter 11: the main actor's time and its reentrancy", .testScheduler, .exposesBug)
struct SearchModelTests {
  @Test("The answer is decoded off the main actor")
  func answerIsDecodedOffTheMainActor() async throws {
    let screen = Screen()
    screen.service.open()

    _ = try await screen.type("swift").results()
    let decoding = try #require(screen.decoder.decodings.first, "the answer should be decoded")

    #expect(
      !decoding.onMainActor,
      screen.scenario.explain(
        """
        The answer for "swift" was decoded on the main actor. For as long as a decode of a big \
        answer runs there, nothing else on the main actor can: no tap is handled, no frame is \
        drawn. search(for:) is isolated to the main actor, and the decode ran as part of it.
        """,
        correctly: "the decode runs off the main actor, which only takes the hits it produced."
      )
    )
  }

  @Test("A search the user has typed past does not replace newer hits")
  func replacedSearchDoesNotOverwriteNewerHits() async throws {
    let screen = Screen()

    let older = screen.type("sw")
    try await screen.waitForTheSearch(for: "sw")
    // The text changes: the view cancels the older search and starts one for the new text.
    older.cancel()
    let newer = screen.type("swift")
    try await screen.waitForTheSearch(for: "swift")
    screen.service.release(2)
    _ = try await newer.results()
    screen.service.release(1)
    _ = try await older.results()
    let shown = await screen.model.hits
    let newerHitsStay = shown == FakeSearchService.hits(for: "swift")

    #expect(
      newerHitsStay,
      screen.scenario.explain(
        """
        The text changed from "sw" to "swift", and the view cancelled the search for "sw". The \
        backend answered "swift" first, and its hits were shown; then the answer for "sw" \
        arrived, and the screen now lists \(shown.map(\.title)): hits for text the user has \
        already typed past. The search for "sw" was suspended at an `await` while the newer \
        search ran on the main actor, and it went on when it resumed.
        """,
        correctly: "the hits for \"swift\" stay; the late answer for \"sw\" changes nothing."
      )
    )
  }

  @Test("Text typed again makes the search typed past in between old news")
  func textTypedAgainOutdatesTheSearchBetween() async throws {
    let screen = Screen()
    screen.service.open()
    _ = try await screen.type("s").results()
    screen.service.close()
    let between = screen.type("sw")
    try await screen.waitForTheSearch(for: "sw")
    // The user deletes the "w": the view cancels the search for "sw" and searches "s" again.
    between.cancel()
    let again = screen.type("s")
    _ = await screen.scenario.waitUntil {
      again.allFinished || screen.service.requests.records.count >= 3
    }
    screen.service.release(2)
    _ = try await between.results()
    let shown = await screen.model.hits
    screen.service.open()
    _ = try await again.results()

    #expect(
      shown == FakeSearchService.hits(for: "s"),
      screen.scenario.explain(
        """
        The user typed "s", then "sw", then deleted the "w": the field says "s" again. The late \
        answer for "sw" then arrived, and the screen listed \(shown.map(\.title)), hits for \
        text the field no longer holds.
        """,
        correctly: "the screen keeps the hits for \"s\" when the late answer for \"sw\" arrives."
      )
    )
  }
}

@Suite("Chapter 11: what the search screen must keep doing", .testScheduler)
struct SearchModelGuardTests {
  @Test("Text typed again after searches that never answered shows its hits")
  func textTypedAgainAfterUnansweredSearchesShowsItsHits() async throws {
    let screen = Screen()
    // The user types "s", then "sw", then deletes the "w", before any answer comes; the view
    // cancels each search as the next one starts.
    let first = screen.type("s")
    try await screen.waitForTheSearch(for: "s")
    first.cancel()
    let between = screen.type("sw")
    try await screen.waitForTheSearch(for: "sw")
    between.cancel()
    let again = screen.type("s")
    _ = await screen.scenario.waitUntil { screen.service.requests.records.count >= 3 }
    screen.service.open()
    _ = try await first.results()
    _ = try await between.results()
    _ = try await again.results()
    let shown = await screen.model.hits

    #expect(
      shown == FakeSearchService.hits(for: "s"),
      screen.scenario.explain(
        """
        The user typed "s", then "sw", then deleted the "w" before any search had answered: the \
        field says "s" again. Every answer then arrived, and the screen listed \
        \(shown.map(\.title)), not the hits for "s".
        """,
        correctly: "the screen lists the hits for \"s\", the text in the field."
      )
    )
  }

  @Test("A search shows what the backend found")
  func searchShowsTheHits() async throws {
    let screen = Screen()
    screen.service.open()

    _ = try await screen.type("swift").results()
    let shown = await screen.model.hits

    #expect(shown == FakeSearchService.hits(for: "swift"), "the screen lists \(shown)")
  }

  @Test("A search that finds nothing shows nothing")
  func searchThatFindsNothingShowsNothing() async throws {
    let screen = Screen()
    let shown = try await screen.hitsAfterASearchFor("swift", thenOneFor: "swiftx", as: "answer")

    #expect(
      shown.isEmpty,
      screen.scenario.explain(
        """
        The backend found nothing for "swiftx", the newest text, yet the screen lists \
        \(shown.map(\.title)): the hits of a search the user has typed past.
        """,
        correctly: "the screen lists no hits once the search for \"swiftx\" has answered."
      )
    )
  }

  @Test("A failed search leaves the last hits on screen")
  func failedSearchKeepsTheLastHits() async throws {
    let screen = Screen()
    let shown = try await screen.hitsAfterASearchFor("swift", thenOneFor: "swiftui", as: "error")

    #expect(
      shown == FakeSearchService.hits(for: "swift"),
      "after a failed search the screen should still list the hits for \"swift\", not \(shown)")
  }

  @Test("A failed search for text typed again leaves the hits of the text typed since")
  func failedSearchForTextTypedAgainKeepsTheLastHits() async throws {
    let screen = Screen()
    screen.service.open()
    _ = try await screen.type("s").results()
    _ = try await screen.type("sw").results()
    screen.service.close()
    // The user deletes the "w": the field says "s" again, and its new search fails.
    let again = screen.type("s")
    _ = await screen.scenario.waitUntil { screen.service.requests.records.count >= 3 }
    screen.service.requests.release(3, as: "error")
    _ = try await again.results()
    let shown = await screen.model.hits

    #expect(
      shown == FakeSearchService.hits(for: "sw"),
      screen.scenario.explain(
        """
        The user typed "s", and its hits were shown; then "sw", and its hits replaced them; then \
        deleted the "w". The new search for "s" failed, and the screen lists \
        \(shown.map(\.title)). A failed search should leave the screen as it was.
        """,
        correctly: "the hits for \"sw\" stay on screen until a search for \"s\" succeeds."
      )
    )
  }

  @Test("An answer that cannot be decoded leaves the last hits on screen")
  func undecodableAnswerKeepsTheLastHits() async throws {
    let screen = Screen()
    let shown = try await screen.hitsAfterASearchFor(
      "swift", thenOneFor: "swiftui", as: "undecodable")

    #expect(
      shown == FakeSearchService.hits(for: "swift"),
      screen.scenario.explain(
        """
        The backend answered "swiftui" with an answer the decoder could not read, and the \
        screen now lists \(shown.map(\.title)). A decode that fails is a failed search, and a \
        failed search should leave the hits for "swift" on screen.
        """,
        correctly: "the hits for \"swift\" stay when the decode of the next answer fails."
      )
    )
  }

  @Test("A search typed past while it is away from the main actor after its decode shows nothing")
  func searchTypedPastAwayAfterItsDecodeShowsNothing() async throws {
    let screen = Screen()
    let older = screen.type("s")
    try await screen.waitForTheSearch(for: "s")
    // From the answer on, the search for "s" is held where it leaves the main actor, as for its
    // decode; let go, it is held where it leaves it next, wherever its work takes it then.
    older.holdWhenTheyLeaveTheActor()
    screen.service.release(1)
    try await older.waitUntilHeldOrFinished()
    older.holdWhenTheyLeaveTheActor()
    try await older.waitUntilHeldOrFinished()
    // The user types on: the view cancels the search for "s" and starts one for "sw".
    older.cancel()
    let newer = screen.type("sw")
    try await screen.waitForTheSearch(for: "sw")
    screen.service.release(2)
    _ = try await newer.results()
    older.release()
    _ = try await older.results()
    let shown = await screen.model.hits

    #expect(
      shown == FakeSearchService.hits(for: "sw"),
      screen.scenario.explain(
        """
        The search for "s" had its answer, and had left the main actor twice since, when the \
        user typed "sw" and the view cancelled it. The hits for "sw" were shown; then the \
        search for "s" came back, and the screen now lists \(shown.map(\.title)).
        """,
        correctly: "the hits for \"sw\" stay; the search for \"s\" changes nothing once cancelled."
      )
    )
  }

  @Test("Cancelling a search cancels its request")
  func cancellingASearchCancelsItsRequest() async throws {
    let screen = Screen()

    let search = screen.type("swift")
    try await screen.waitForTheSearch(for: "swift")
    search.cancel()
    // The cancellation may reach the request by a step of its own, such as a task the search's
    // cancellation handler starts.
    let cancelled = await screen.scenario.waitUntil { screen.service.wasCancelled(1) }
    screen.service.open()
    _ = try await search.results()

    #expect(
      cancelled,
      screen.scenario.explain(
        """
        The view cancelled the search for "swift", but the backend's search #1 was not \
        cancelled: the cancellation did not reach the work it was meant to stop, which runs on \
        for a screen that no longer wants it.
        """,
        correctly: "cancelling the view's task cancels search #1."
      )
    )
  }
}

@Suite("Chapter 11: every interleaving", .testScheduler, .exposesBug)
struct SearchModelExplorationTests {
  @Test("Typing three queries, answered in every order and none failing, never shows older hits")
  func everyInterleavingKeepsThePromise() async {
    await Exploration(
      SearchScreenWorld.self, calls: [.typing("s"), .typing("sw"), .typing("swi")],
      bounds: ExplorationBounds(unusualOutcomes: 0, holds: 0)
    ).run()
  }

  @Test("Typing two queries, answered in every order, one failing at most, never shows older hits")
  func everyInterleavingOfAFailureKeepsThePromise() async {
    await Exploration(
      SearchScreenWorld.self, calls: [.typing("s"), .typing("sw")],
      // Two queries are enough for a failure to meet a search typed past; each query more costs
      // every schedule more trips to the main actor, for the same gaps.
      bounds: ExplorationBounds(holds: 0)
    ).run()
  }

  @Test("Typing on while one search is held in its decode never shows older hits")
  func everyInterleavingOfADecodeKeepsThePromise() async {
    await Exploration(
      SearchScreenWorld.self, calls: [.typing("s"), .typing("sw")],
      // A caller's lane does not hold its main-actor jobs, which run on the main queue; a held
      // search stops inside its decode instead, as a big answer keeps a thread busy, while the
      // user types on.
      bounds: ExplorationBounds(unusualOutcomes: 0, holds: 1)
    ).run()
  }
}

/// A search screen in a world of its own, whose view, like `.task(id:)`, cancels the search for
/// the old text whenever a new one starts.
struct SearchScreenWorld: ChapterWorld {
  struct Call: ExploredCall {
    let query: String

    static func typing(_ query: String) -> Self { Self(query: query) }

    var description: String { "search(for: \(query))" }
  }

  /// The view's current search, which the next one cancels.
  private final class View: Sendable {
    let current = Locked<Task<Void, Never>?>(nil)
    let shown = Locked<[[SearchHit]]>([])
  }

  let service: FakeSearchService
  let decoder: FakeSearchDecoder
  let model: SearchModel
  private let view = View()

  init(_ scenario: Scenario) {
    service = FakeSearchService(scenario)
    decoder = FakeSearchDecoder(scenario)
    model = SearchModel(service: service, decoder: decoder)
  }

  var fakes: [any FakeService] { [service] }

  func perform(_ call: Call) async throws -> any Sendable {
    let search = Task { await model.search(for: call.query) }
    view.current.withLock { current in
      current?.cancel()
      current = search
    }
    await withTaskCancellationHandler {
      await search.value
    } onCancel: {
      search.cancel()
    }
    return ()
  }

  /// Settled: every search has returned, waits for the backend's answer, or is held, inside its
  /// decode or ready to return; or a search is held inside its decode and nothing more happens
  /// until it is let go, as when searches take turns on one decoder.
  func settle(_ scenario: Scenario) async throws {
    let settled: @Sendable () -> Bool = {
      let waiting = Set(service.requests.records.filter(\.isInFlight).compactMap(\.caller))
      return scenario.callers.allSatisfy {
        $0.hasFinished || waiting.contains($0.name) || scenario.isHeldInsideItsWork($0.name)
          || ($0.isHeld && scenario.isReadyToResume($0.name))
      }
    }
    let oneIsHeldInsideItsDecode: @Sendable () -> Bool = {
      scenario.callers.contains { scenario.isHeldInsideItsWork($0.name) }
    }
    if await scenario.waitUntil(settled, orQuietWhile: oneIsHeldInsideItsDecode)
      || oneIsHeldInsideItsDecode()
    {
      return
    }
    try await scenario.settle(
      when: settled, "a search had neither returned nor reached the backend")
  }

  /// Answers are decoded off the main actor; the screen changes only to hits for the text the
  /// field holds, once a search for it succeeds; the hits shown never go back to an older query's;
  /// a search the view has cancelled has its request cancelled; and once the newest search has
  /// succeeded, hits for its text are what the screen lists.
  func checkPromise(_ moment: Moment<Self>) async {
    for decoding in decoder.decodings where decoding.onMainActor {
      moment.expect(
        false, "decoding stays off the main actor",
        "The answer for \"\(decoding.query)\" was decoded on the main actor.")
    }
    let shown = await model.hits
    let order = moment.callers.map { moment.call(of: $0).query }
    func age(_ hits: [SearchHit]) -> Int? {
      order.firstIndex { FakeSearchService.hits(for: $0) == hits }
    }
    let (history, changed) = view.shown.withLock { history in
      let changed = history.last != shown
      if changed { history.append(shown) }
      return (history, changed)
    }
    if changed, let newest = moment.callers.last {
      let query = moment.call(of: newest).query
      moment.expect(
        shown == FakeSearchService.hits(for: query),
        "only hits for the field's text change the screen",
        """
        The field holds "\(query)", and the screen changed to list \(shown.map(\.title)), which \
        the search for "\(query)" did not find: the screen listed, in turn, \
        \(history.map { $0.map(\.title) }). Until the newest search succeeds, the screen should \
        keep what it listed.
        """)
    }
    let ages = history.compactMap(age)
    moment.expect(
      ages == ages.sorted(), "hits never go back to older text",
      """
      The screen listed, in turn, \(history.map { $0.map(\.title) }): hits for older text came \
      back after hits for newer text.
      """)
    let records = service.requests.records
    for caller in moment.callers.dropLast() {
      let running = records.filter { $0.caller == caller.name && $0.isInFlight && !$0.wasCancelled }
      moment.expect(
        running.isEmpty, "a search typed past is cancelled",
        """
        The view cancelled the search for "\(moment.call(of: caller).query)" when newer text \
        came, but \(running.map(service.requests.name(of:)).joined(separator: ", ")) was not \
        cancelled.
        """)
    }
    if moment.isEnd, let newest = moment.callers.last,
      records.first(where: { $0.caller == newest.name })?.outcome == "answer"
    {
      let query = moment.call(of: newest).query
      moment.expect(
        shown == FakeSearchService.hits(for: query), "the newest hits are shown",
        "The search for \"\(query)\" succeeded, but the screen lists \(shown.map(\.title)).")
    }
  }
}
