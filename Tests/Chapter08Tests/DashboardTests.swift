import ScheduleExplorer
import Services
import Testing
import WorkbookTestSupport

@testable import Chapter08

extension DashboardContent: CustomTestStringConvertible {
  public var testDescription: String {
    "a dashboard of four panels"
  }
}

@Suite("Chapter 08: independent work runs at the same time", .testScheduler, .exposesBug)
struct ConcurrentPanelTests {
  @Test("All four panels load at the same time")
  func panelsLoadAtTheSameTime() async throws {
    let scenario = Scenario()
    let service = FakeDashboardService(scenario)
    let dashboard = Dashboard(service: service)

    let load = scenario.start(1, "load()") { try await dashboard.load() }
    let allAtOnce = await scenario.wait { service.requestsInFlight == 4 }
    let inFlight = service.requestsInFlight
    service.open()
    let results = try await load.results()

    #expect(
      allAtOnce,
      scenario.explain(
        """
        The four panels do not depend on each other, yet when nothing more could happen \
        without an answer, only \(inFlight) of their requests \(inFlight == 1 ? "was" : "were") \
        out: the others had not been sent, because load() was waiting at a `try await` for a \
        panel before them. The screen takes as long as those requests added up. Loaded: \
        \(describe(results)).
        """,
        correctly: "loads #1 to #4 all start before any of them finishes."
      )
    )
  }
}

@Suite("Chapter 08: what loading must keep doing", .testScheduler)
struct DashboardGuardTests {
  @Test("A dashboard loads all four panels")
  func dashboardLoadsEveryPanel() async throws {
    let scenario = Scenario()
    let service = FakeDashboardService(scenario)
    let dashboard = Dashboard(service: service)
    service.open()

    let content = try await scenario.call("load()") { try await dashboard.load() }

    for panel in DashboardPanel.allCases {
      let request = try #require(
        service.request(for: panel), "\(panel.rawValue) was never asked for")
      #expect(
        DashboardWorld.text(of: panel, in: content)
          == FakeDashboardService.content(for: panel, request: request),
        "the \(panel.rawValue) panel should show what load #\(request) answered")
    }
  }

  @Test("A failing panel fails the load, and no panel is still loading once it has")
  func failureIsThrownAndNothingKeepsLoading() async throws {
    let scenario = Scenario()
    let service = FakeDashboardService(scenario)
    let dashboard = Dashboard(service: service)

    service.fail(.profile)
    let load = scenario.start(1, "load()") { try await dashboard.load() }
    try await scenario.settle()
    let profile = try #require(
      service.request(for: .profile), "the profile panel should start loading")
    service.release(profile)
    try await scenario.settle()
    // Whatever load() still waits for may finish now; the order in which it awaits its panels
    // decides when the failure surfaces, and any order is right.
    service.open()
    let result = try await load.results()[0]
    let finishedAt = scenario.callers[0].finishedAt ?? .max
    let stillLoading = service.requests.records.filter { ($0.answeredAt ?? .max) > finishedAt }

    #expect(
      result.error is FakeNetworkError,
      scenario.explain(
        "the profile panel failed, so load() should throw its error; it \(result)",
        correctly: "load() throws the profile panel's error."
      )
    )
    let stillRunning = stillLoading.count
    #expect(
      stillRunning == 0,
      scenario.explain(
        """
        load() had already thrown when \(stillLoading.map { "load #\($0.number)" }.joined(separator: ", ")) \
        finished: \(stillLoading.count == 1 ? "it was" : "they were") still running for a screen \
        that will never show \(stillLoading.count == 1 ? "it" : "them").
        """,
        correctly: "every panel request has ended, one way or another, before load() throws."
      )
    )
  }

  @Test("An older load that succeeds after a newer one has failed is what the dashboard shows")
  func olderLoadSucceedingAfterANewerFailureIsShown() async throws {
    let scenario = Scenario()
    let service = FakeDashboardService(scenario)
    let dashboard = Dashboard(service: service)

    let older = scenario.start(1, "load()") { try await dashboard.load() }
    try await scenario.settle()
    let newer = scenario.start(1, "load()") { try await dashboard.load() }
    try await scenario.settle()
    /// Answers the waiting requests of `caller`, the first of them as `first`, until it returns
    /// or waits on no request of its own, as a load that joined another's would.
    func answer(_ caller: String, first: String, _ load: Callers<DashboardContent>) async throws {
      var outcome = first
      while !load.allFinished {
        let waiting = service.requests.records.filter { $0.caller == caller && $0.isInFlight }
        if waiting.isEmpty { return }
        for request in waiting {
          service.requests.release(request.number, as: outcome)
          outcome = "content"
        }
        try await scenario.settle()
      }
    }
    try await answer("B", first: "error", newer)
    try await answer("A", first: "content", older)
    let loaded = try await older.results()[0].value
    let shown = try await scenario.call("content") { await dashboard.content }
    service.open()

    #expect(
      loaded != nil && shown == loaded,
      scenario.explain(
        """
        Two calls of load() overlapped: B's, the newer, failed, and then A's loaded \
        \(loaded == nil ? "nothing" : "a dashboard"). content is then \
        \(shown == nil ? "nothing" : shown == loaded ? "A's dashboard" : "another dashboard"): \
        A's load was the last to succeed, and no load started after it succeeded.
        """,
        correctly: "the older load returns its dashboard, and the dashboard shows it."
      )
    )
  }

  @Test("A reload keeps the last dashboard shown until it succeeds")
  func reloadKeepsTheLastDashboard() async throws {
    let scenario = Scenario()
    let service = FakeDashboardService(scenario)
    let dashboard = Dashboard(service: service)
    service.open()
    let first = try await scenario.call("load()") { try await dashboard.load() }
    service.close()

    service.fail(.news)
    let reload = scenario.start(1, "load()") { try await dashboard.load() }
    try await scenario.settle()
    let shownWhileLoading = try await scenario.call("content") { await dashboard.content }
    service.open()
    _ = try await reload.results()
    let shownAfterFailure = try await scenario.call("content") { await dashboard.content }

    #expect(
      shownWhileLoading == first && shownAfterFailure == first,
      scenario.explain(
        """
        The dashboard had loaded once. While a reload was running it showed \
        \(shownWhileLoading == nil ? "nothing" : "a dashboard"), and after the reload failed it \
        showed \(shownAfterFailure == nil ? "nothing" : "a dashboard"): the screen went blank \
        though it had a dashboard to show.
        """,
        correctly: "the first dashboard stays shown while the reload runs and after it fails."
      )
    )
  }

  @Test("Cancelling the load cancels every panel")
  func cancellingTheLoadCancelsEveryPanel() async throws {
    let scenario = Scenario()
    let service = FakeDashboardService(scenario)
    let dashboard = Dashboard(service: service)

    let load = scenario.start(1, "load()") { try await dashboard.load() }
    try await scenario.settle()
    load.cancel()
    let finished = await scenario.wait { load.allFinished }
    let stillLoading = service.requestsInFlight
    service.open()
    let result = try await load.results()[0]

    #expect(
      finished && stillLoading == 0,
      scenario.explain(
        """
        The screen was closed and its load cancelled, yet \(stillLoading) panel \
        \(stillLoading == 1 ? "request was" : "requests were") still running\
        \(finished ? "" : " and load() had not returned"), for a screen that is gone. Load got: \
        \(result).
        """,
        correctly: "every panel request is cancelled, and load() has ended before the test looks."
      )
    )
  }

  @Test("A load cancelled once every panel has answered shows the dashboard it returns")
  func aLoadCancelledAfterItsAnswersShowsWhatItReturns() async throws {
    let scenario = Scenario()
    let service = FakeDashboardService(scenario)
    let dashboard = Dashboard(service: service)

    let load = scenario.start(1, "load()") { try await dashboard.load() }
    try await scenario.settle()
    // Every panel answers while the load waits to resume; then its screen is closed.
    load.hold()
    service.open()
    try await scenario.settle()
    load.cancel()
    load.release()
    let result = try await load.results()[0]
    let shown = await dashboard.content

    #expect(
      result.value == nil || shown == result.value,
      scenario.explain(
        """
        All four panels answered, and then the load was cancelled before it resumed. It \
        returned a dashboard all the same, so it succeeded, yet the dashboard shows \
        \(shown == nil ? "nothing" : "another one").
        """,
        correctly:
          "a load that returns its dashboard shows it, cancelled or not; or it throws, and the dashboard stays as it was."
      )
    )
  }

  @Test("Cancelling one of two loads that overlap ends that load, and only that one")
  func cancellingOneOfTwoLoadsEndsOnlyThatOne() async throws {
    let scenario = Scenario()
    let service = FakeDashboardService(scenario)
    let dashboard = Dashboard(service: service)

    let first = scenario.start(1, "load()") { try await dashboard.load() }
    try await scenario.settle()
    let second = scenario.start(1, "load()") { try await dashboard.load() }
    try await scenario.settle()
    first.cancel()
    let firstEnded = await scenario.wait { first.allFinished }
    let cancelledOfB = service.requests.records.count { $0.caller == "B" && $0.wasCancelled }
    service.open()
    let results = try await first.results() + second.results()

    #expect(
      firstEnded && cancelledOfB == 0 && results[1].value != nil,
      scenario.explain(
        """
        Loads A and B overlapped, and A's screen was closed: A was cancelled, B never was. \
        \(firstEnded ? "A ended" : "A had not ended before the network answered") and \
        \(cancelledOfB) of B's panel requests were cancelled. Loads got: \(describe(results)).
        """,
        correctly: "A ends without waiting for the network, and B loads its four panels."
      )
    )
  }

  @Test("A load that starts after one has ended, while another runs, shows its own panels")
  func aLoadBesideAnotherAfterAThirdEndedShowsItsOwnPanels() async throws {
    let scenario = Scenario()
    let service = FakeDashboardService(scenario)
    let dashboard = Dashboard(service: service)
    /// Lets caller `name`'s requests answer, one settled moment at a time, until its load ends.
    func answerEvery(_ name: String, of load: Callers<DashboardContent>) async throws {
      while !load.allFinished {
        let waiting = service.requests.records.filter { $0.caller == name && $0.isInFlight }
        guard !waiting.isEmpty else { break }
        for request in waiting { service.requests.release(request.number) }
        try await scenario.settle()
      }
    }
    /// The dashboard of what caller `name`'s own requests answered.
    func ownDashboard(of name: String) -> DashboardContent? {
      let texts = DashboardPanel.allCases.map { panel in
        service.requests.records.last { $0.caller == name && $0.key == panel.rawValue }
          .map { FakeDashboardService.content(for: panel, request: $0.number) }
      }
      guard let profile = texts[0], let portfolio = texts[1], let orders = texts[2],
        let news = texts[3]
      else { return nil }
      return DashboardContent(profile: profile, portfolio: portfolio, orders: orders, news: news)
    }

    let first = scenario.start(1, "load()") { try await dashboard.load() }
    try await scenario.settle()
    let second = scenario.start(1, "load()") { try await dashboard.load() }
    try await scenario.settle()
    try await answerEvery("A", of: first)
    let third = scenario.start(1, "load()") { try await dashboard.load() }
    try await scenario.settle()
    service.open()
    let results = try await first.results() + second.results() + third.results()
    let others = ["B", "C"].filter { name in
      results.first { $0.caller == name }?.value != ownDashboard(of: name)
    }

    #expect(
      others.isEmpty,
      scenario.explain(
        """
        A and B loaded at the same time; A's panels answered and A's load ended, and then C \
        began to load while B still ran. \(others.joined(separator: " and ")) did not get the \
        dashboard of \(others.count == 1 ? "its" : "their") own panels. Loads got: \
        \(describe(results)).
        """,
        correctly: "each of the three loads returns the dashboard of its own four panels."
      )
    )
  }
}

@Suite("Chapter 08: every interleaving", .testScheduler, .exposesBug)
struct DashboardExplorationTests {
  @Test(
    "A reload, its panels answering in every order, at most one failing, cancelled at any moment, keeps the promise"
  )
  func everyInterleavingKeepsThePromise() async {
    await Exploration(
      DashboardWorld.self, calls: [MethodCall("load()", key: "the dashboard")],
      // What reaches the dashboard reaches it when its caller resumes; holding it in that gap is,
      // to the dashboard, the same as a slower panel. A cancelled load's requests wind down one
      // by one, at any moment, oldest first.
      // The order in which ready tasks start is not explored: the panels' requests do not depend
      // on each other, and the answers already come in every order.
      bounds: ExplorationBounds(
        holds: 0, cancellations: 1, taskOrders: 0, cancelledRequestsEndOldestFirst: true)
    ).run()
  }

  @Test("Two loads that overlap, with at most one answer out of order, each show their own panels")
  func overlappingLoadsKeepThePromise() async {
    let load = MethodCall("load()", key: "the dashboard")
    await Exploration(
      DashboardWorld.self, calls: [load, load],
      // Every moment at which the second load can start, with the panels answering in the order
      // they were asked for but once, when one answers ahead of an older one; the exploration
      // above tries every order, for one load. Ready tasks start in the order they became ready,
      // as above. Nor is a load held where it steps off the dashboard, as the reload above is: a
      // design whose panel tasks come back to the dashboard to hand in their panels steps off once
      // for each, and holding each in turn took two loads from 105 schedules to 4658, past the
      // time a check allows a chapter on a busy machine.
      bounds: ExplorationBounds(
        unusualOutcomes: 0, holds: 0, holdsOffTheActor: 0, reorderings: 1, taskOrders: 0)
    ).run()
  }
}

/// The dashboard in a world of its own, whose cancelled requests take a moment to wind down, with
/// the promise it keeps in every schedule.
struct DashboardWorld: ChapterWorld {
  let service: FakeDashboardService
  let dashboard: Dashboard

  init(_ scenario: Scenario) {
    service = FakeDashboardService(scenario)
    service.cancelledRequestsWaitForRelease = true
    dashboard = Dashboard(service: service)
  }

  /// What `content` shows in `panel`.
  static func text(of panel: DashboardPanel, in content: DashboardContent) -> String {
    switch panel {
    case .profile: content.profile
    case .portfolio: content.portfolio
    case .orders: content.orders
    case .news: content.news
    }
  }

  var fakes: [any FakeService] { [service] }

  /// The screen has loaded once already, so a reload has something to keep showing.
  func prepare(_ scenario: Scenario) async throws {
    service.open()
    let first = scenario.start(["screen"], "load()") { try await dashboard.load() }
    _ = try await first.results()[0].result.get()
    service.close()
  }

  func perform(_ call: MethodCall) async throws -> any Sendable {
    try await dashboard.load()
  }

  /// A load has all four panels in flight at once; once it returns or throws, none of its
  /// requests is still running; a failed panel fails the load, and a load whose panels all
  /// answered returns them, whatever another load does meanwhile; a cancelled load waits for
  /// no answer, only for its cancelled requests to wind down; and the content shown is that of the
  /// last load that succeeded, or of a load started after it that succeeded first, even while
  /// another runs.
  func checkPromise(_ moment: Moment<Self>) async {
    let records = service.requests.records
    for load in moment.callers {
      let panels = records.filter { $0.caller == load.name }
      let failed = panels.filter { $0.outcome == "error" }
      if let finished = load.finishedAt {
        let running = panels.filter(\.isInFlight)
        moment.expect(
          running.isEmpty, "nothing runs once load() is over",
          """
          Caller \(load.name)'s load() had \(load.error == nil ? "returned" : "thrown"), yet \
          \(running.map(service.requests.name(of:)).joined(separator: ", ")) still ran, for a \
          screen that will never show \(running.count == 1 ? "it" : "them").
          """)
        if !failed.isEmpty && !load.wasCancelled {
          moment.expect(
            load.error is FakeNetworkError, "a failed panel fails the load",
            """
            \(service.requests.name(of: failed[0])) failed, but caller \(load.name)'s load() \
            \(load.error == nil ? "returned a dashboard" : "threw \(describe(load.error!))") \
            instead of that panel's error.
            """)
        } else if !load.wasCancelled || load.error == nil {
          // A cancelled load may still return, once every panel has answered; what it returns
          // is then its own panels, as for any other load.
          let others = moment.callers.filter {
            $0.name != load.name && $0.startedAt < finished
              && ($0.finishedAt ?? .max) > load.startedAt
          }
          let got = load.value(as: DashboardContent.self)
          /// Whether `panel` shows what one of this load's own requests for it answered.
          func isOwn(_ panel: DashboardPanel, in content: DashboardContent) -> Bool {
            panels.contains {
              $0.key == panel.rawValue && $0.outcome == "content"
                && Self.text(of: panel, in: content)
                  == FakeDashboardService.content(for: panel, request: $0.number)
            }
          }
          let what =
            got.map { content in
              let wrong = DashboardPanel.allCases.filter { !isOwn($0, in: content) }
              let one = wrong.count == 1
              return "returned a dashboard whose "
                + wrong.map(\.rawValue).joined(separator: " and ")
                + (one
                  ? " panel does not hold what its request"
                  : " panels do not hold what their requests")
                + " answered"
            } ?? "threw \(describe(load.error!))"
          let overlap =
            others.isEmpty
            ? ""
            : ", while " + others.map { "caller \($0.name)'s" }.joined(separator: " and ")
              + " load() ran at the same time"
          moment.expect(
            got.map { content in DashboardPanel.allCases.allSatisfy { isOwn($0, in: content) } }
              ?? false,
            "a load returns its own panels",
            """
            \(load.wasCancelled ? "Caller \(load.name)'s load() was cancelled and returned" : "All four of caller \(load.name)'s panels answered with their content"), \
            but its load() \(what)\(overlap). It should return the dashboard of its own four \
            panels.
            """)
        }
        continue
      }
      // A load held where it stepped off the actor goes on only once the test lets it.
      guard !load.isHeld else { continue }
      if load.wasCancelled {
        // It may wait for the requests it cancelled to wind down, but for no answer.
        let windingDown = panels.filter { $0.isInFlight && $0.wasCancelled }
        let live = panels.filter { $0.isInFlight && !$0.wasCancelled }
        moment.expect(
          !windingDown.isEmpty && live.isEmpty, "a cancelled load waits for no answer",
          """
          Caller \(load.name)'s load() was cancelled, but it had not returned once everything \
          else had settled\(live.isEmpty ? ", though every one of its requests had ended" : ": \(live.map(service.requests.name(of:)).joined(separator: ", ")) still ran, and it waited for \(live.count == 1 ? "that answer" : "those answers")").
          """)
      } else if failed.isEmpty {
        moment.expect(
          panels.count == DashboardPanel.allCases.count, "all four panels load at once",
          """
          Caller \(load.name)'s load() is waiting with \(panels.count) of its \
          \(DashboardPanel.allCases.count) panels requested: the panels do not depend on each \
          other, and should all be on their way before any of them answers.
          """)
      }
    }
    // A load held where it stepped off the actor may have shown its dashboard and not yet
    // returned; the dashboard is checked again once it goes on.
    guard !moment.someoneIsHeld else { return }
    let loaded = moment.callers.filter { $0.hasFinished && $0.error == nil }
    let lastLoaded = loaded.max { $0.finishedAt! < $1.finishedAt! }
    // A load started after the last one to succeed, which succeeded before it, may stay shown
    // instead: keeping the newer dashboard is a choice the promise leaves to the fix.
    let mayStay = loaded.filter { load in
      lastLoaded.map { load.name == $0.name || load.startedAt > $0.startedAt } ?? false
    }
    let shown = await dashboard.content
    moment.expect(
      mayStay.isEmpty
        ? shown == nil
        : mayStay.contains { shown == $0.value(as: DashboardContent.self) },
      "the last dashboard loaded stays",
      """
      The dashboard shows \(shown.map { _ in "a dashboard" } ?? "nothing"), but \
      \(lastLoaded.map { "caller \($0.name)'s load() had loaded one" } ?? "no load had succeeded"): \
      what is shown should be the last dashboard loaded, until a new load succeeds (or that of a \
      load started after it, if that one succeeded first).
      """)
  }
}
