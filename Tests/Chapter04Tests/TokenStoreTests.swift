import ScheduleExplorer
import Services
import Testing
import WorkbookTestSupport

@testable import Chapter04

@Suite("Chapter 04: a rejection that arrives late", .testScheduler, .exposesBug)
struct LateRejectionTests {
  @Test("A caller who reports a token that was already replaced gets the new one, no refresh")
  func lateRejectionGetsTheCurrentToken() async throws {
    let scenario = Scenario()
    let server = FakeAuthServer(scenario)
    let store = TokenStore(credentials: FakeAuthServer.validCredentials, server: server)
    server.open()

    let first = try await scenario.call("accessToken(replacing: access-0)") {
      try await store.accessToken(replacing: "access-0")
    }
    let late = try await scenario.call("accessToken(replacing: access-0)") {
      try await store.accessToken(replacing: "access-0")
    }

    #expect(
      server.refreshes == 1 && late == first,
      scenario.explain(
        """
        Two requests carried access-0 and the API turned both away. Caller A reported it first \
        and got \(first) from refresh #1. Caller B's answer came back later; by the time B \
        reported access-0, it had already been replaced, yet B got \(late) and \
        \(server.refreshes) refreshes reached the server in all. Each refresh revokes the token \
        issued before it, so \(first), which A had just been given, \
        \(server.currentAccessToken == first ? "still works" : "no longer works").
        """,
        correctly: "B gets access-1 as well, and refresh #1 stays the only refresh."
      )
    )
  }

  @Test("A report made while the refreshing caller is away from the store gets the new token")
  func reportWhileTheRefresherIsAwayGetsTheNewToken() async throws {
    let scenario = Scenario()
    let server = FakeAuthServer(scenario)
    let store = TokenStore(credentials: FakeAuthServer.validCredentials, server: server)

    let first = scenario.start(1, "accessToken(replacing: access-0)") {
      try await store.accessToken(replacing: "access-0")
    }
    try await scenario.settle()
    // Once refresh #1 has answered, A is held where it next leaves the store: for a step of its
    // own elsewhere, in the middle of its work, or to return. B reports access-0 meanwhile.
    first.holdWhenTheyLeaveTheActor()
    server.requests.release(1)
    try await scenario.settle()
    let late = scenario.start(1, "accessToken(replacing: access-0)") {
      try await store.accessToken(replacing: "access-0")
    }
    try await scenario.settle()
    first.release()
    server.open()
    let results = try await first.results() + late.results()

    #expect(
      server.refreshes == 1 && results.allSatisfy { $0.value == "access-1" },
      scenario.explain(
        """
        Refresh #1 had answered, and caller A had left the store, not yet returned, when caller \
        B reported access-0: \(server.refreshes) refreshes reached the server, and callers got \
        \(describe(results)).
        """,
        correctly: "B gets access-1 from refresh #1, and refresh #1 stays the only refresh."
      )
    )
  }

  @Test(
    "A report of a token replaced refreshes ago gets the current one, no refresh",
    arguments: [2, 5])
  func reportOfALongReplacedTokenGetsTheCurrentOne(refreshes: Int) async throws {
    let scenario = Scenario()
    let server = FakeAuthServer(scenario)
    let store = TokenStore(credentials: FakeAuthServer.validCredentials, server: server)
    server.open()

    // Each caller in turn reports the token the one before it was given.
    var given: [String] = []
    for _ in 1...refreshes {
      let reported = given.last ?? "access-0"
      given.append(
        try await scenario.call("accessToken(replacing: \(reported))") {
          try await store.accessToken(replacing: reported)
        })
    }
    let late = try await scenario.call("accessToken(replacing: access-0)") {
      try await store.accessToken(replacing: "access-0")
    }
    let current = given.last ?? ""

    #expect(
      server.refreshes == refreshes && late == current,
      scenario.explain(
        """
        Each caller in turn reported the token the one before it was given, and the \
        \(refreshes) refreshes brought \(given.joined(separator: ", ")). Then a caller reported \
        access-0, for a request sent before any of them: by then access-0 had been replaced \
        \(refreshes) times over, yet that caller got \(late), and \(server.refreshes) refreshes \
        reached the server in all. The token just handed out, \(current), \
        \(server.currentAccessToken == current ? "still works" : "no longer works").
        """,
        correctly: "the late report gets \(current), and refresh #\(refreshes) stays the last."
      )
    )
  }

  @Test("A caller who shared a refresh and resumes late does not undo a later one")
  func lateSharerLeavesALaterRefreshAlone() async throws {
    let scenario = Scenario()
    let server = FakeAuthServer(scenario)
    let store = TokenStore(credentials: FakeAuthServer.validCredentials, server: server)

    let first = scenario.start(1, "accessToken(replacing: access-0)") {
      try await store.accessToken(replacing: "access-0")
    }
    try await scenario.settle()
    let sharer = scenario.start(1, "accessToken(replacing: access-0)") {
      try await store.accessToken(replacing: "access-0")
    }
    try await scenario.settle()
    // B is kept from resuming until a second refresh has come and gone.
    sharer.hold()
    server.open()
    _ = try await first.results()
    let second = try await scenario.call("accessToken(replacing: access-1)") {
      try await store.accessToken(replacing: "access-1")
    }
    sharer.release()
    _ = try await sharer.results()
    let late = try await scenario.start(1, "accessToken(replacing: access-1)") {
      try await store.accessToken(replacing: "access-1")
    }.results()[0]

    let answer = late.value.map { "got \($0)" } ?? "threw: \(late.error.map { "\($0)" } ?? "")"
    #expect(
      server.refreshes == 2 && late.value == second,
      scenario.explain(
        """
        Callers A and B reported access-0 and shared refresh #1, which brought access-1; B had \
        not yet resumed when access-1 was turned away in turn and refresh #2 brought \
        \(second). Then B resumed, and after that came a late report of access-1: \(late.caller) \(answer), with \
        \(server.refreshes) refreshes in all.
        """,
        correctly: "the late report gets \(second) and starts no refresh: two refreshes in all."
      )
    )
  }

  @Test("After a failed refresh, a token replaced before it still gets the current one")
  func replacedTokenStaysReplacedAfterAFailure() async throws {
    let scenario = Scenario()
    let server = FakeAuthServer(scenario)
    let store = TokenStore(credentials: FakeAuthServer.validCredentials, server: server)
    server.open()

    let current = try await scenario.call("accessToken(replacing: access-0)") {
      try await store.accessToken(replacing: "access-0")
    }
    server.failsRefreshes = true
    _ = try await scenario.start(1, "accessToken(replacing: \(current))") {
      try await store.accessToken(replacing: current)
    }.results()
    server.failsRefreshes = false
    // A store may refresh again after a failure on its own; only the late report is judged here.
    let refreshesBefore = server.refreshes
    let late = try await scenario.start(1, "accessToken(replacing: access-0)") {
      try await store.accessToken(replacing: "access-0")
    }.results()[0]
    let refreshesForIt = server.refreshes - refreshesBefore

    let answer = late.value.map { "got \($0)" } ?? "threw: \(late.error.map { "\($0)" } ?? "")"
    #expect(
      refreshesForIt == 0 && late.value == current,
      scenario.explain(
        """
        A report of access-0 brought \(current). Then \(current) was turned away and the \
        refresh for it failed, so \(current) was still the token the store held. Then came a \
        late report of access-0: \(late.caller) \(answer), and \(refreshesForIt) \
        \(refreshesForIt == 1 ? "refresh" : "refreshes") started after that report.
        """,
        correctly: "the late report gets \(current) and starts no refresh."
      )
    )
  }
}

@Suite("Chapter 04: what the token store must keep doing", .testScheduler)
struct TokenStoreGuardTests {
  @Test("Callers who find the token expired share one refresh and all stay signed in")
  func callersShareOneRefresh() async throws {
    let scenario = Scenario()
    let server = FakeAuthServer(scenario)
    let store = TokenStore(credentials: FakeAuthServer.expiredCredentials, server: server)

    let callers = scenario.start(3, "validAccessToken()") { try await store.validAccessToken() }
    try await scenario.settle()
    server.open()
    let results = try await callers.results()

    #expect(
      server.refreshes == 1 && results.allSatisfy { $0.value == "access-1" },
      scenario.explain(
        """
        3 callers found the access token expired: \(server.refreshes) refreshes reached the \
        server with the same single-use refresh token, and the server rejected \
        \(server.rejectedRefreshes). Callers got: \(describe(results)).
        """,
        correctly: "only refresh #1 reaches the server; B and C wait for it; all get access-1."
      )
    )
  }

  @Test("Callers whose requests were turned away at once share one refresh")
  func callersReportingTogetherShareOneRefresh() async throws {
    let scenario = Scenario()
    let server = FakeAuthServer(scenario)
    let store = TokenStore(credentials: FakeAuthServer.validCredentials, server: server)

    let callers = scenario.start(3, "accessToken(replacing: access-0)") {
      try await store.accessToken(replacing: "access-0")
    }
    try await scenario.settle()
    server.open()
    let results = try await callers.results()

    #expect(
      server.refreshes == 1 && results.allSatisfy { $0.value == "access-1" },
      scenario.explain(
        """
        3 callers reported access-0 while no refresh had answered yet: \(server.refreshes) \
        refreshes reached the server, and callers got \(describe(results)).
        """,
        correctly: "one refresh; every caller gets access-1, none gets access-0 back."
      )
    )
  }

  @Test("A late report during a later refresh does not start another")
  func lateRejectionDuringARefreshDoesNotRefreshAgain() async throws {
    let scenario = Scenario()
    let server = FakeAuthServer(scenario)
    let store = TokenStore(credentials: FakeAuthServer.validCredentials, server: server)

    let first = scenario.start(1, "accessToken(replacing: access-0)") {
      try await store.accessToken(replacing: "access-0")
    }
    try await scenario.settle()
    server.release(1)
    _ = try await first.results()
    let second = scenario.start(1, "accessToken(replacing: access-1)") {
      try await store.accessToken(replacing: "access-1")
    }
    try await scenario.settle()
    let late = scenario.start(1, "accessToken(replacing: access-0)") {
      try await store.accessToken(replacing: "access-0")
    }
    try await scenario.settle()
    server.open()
    let results = try await first.results() + second.results() + late.results()

    #expect(
      server.refreshes == 2,
      scenario.explain(
        """
        Caller A's report of access-0 brought access-1; then access-1 was turned away too, and \
        caller B's refresh #2 was running when caller C's late report of access-0 came in. \
        \(server.refreshes) refreshes reached the server in all. Callers got: \
        \(describe(results)).
        """,
        correctly: "C's late report starts no refresh of its own: two refreshes in all."
      )
    )
  }

  @Test("A caller who asks just as the refresh finishes gets the new token without refreshing")
  func callerArrivingAsTheRefreshFinishesGetsTheNewToken() async throws {
    let scenario = Scenario()
    let server = FakeAuthServer(scenario)
    let store = TokenStore(credentials: FakeAuthServer.expiredCredentials, server: server)

    let results = try await scenario.callInTheGap("validAccessToken()", answering: server) {
      try await store.validAccessToken()
    }

    #expect(
      server.refreshes == 1 && results.allSatisfy { $0.value == "access-1" },
      scenario.explain(
        """
        Caller B asked after refresh #1 had finished but before caller A had stored the new \
        credentials: \(server.refreshes) refreshes reached the server, and callers got \
        \(describe(results)).
        """,
        correctly: "B joins refresh #1 and gets access-1."
      )
    )
  }

  @Test("Two callers cancelled in turn while a refresh runs end only their own calls")
  func twoCancellationsEndOnlyTheirOwnCalls() async throws {
    let scenario = Scenario()
    let server = FakeAuthServer(scenario)
    let store = TokenStore(credentials: FakeAuthServer.validCredentials, server: server)

    let callers = scenario.start(3, "accessToken(replacing: access-0)") {
      try await store.accessToken(replacing: "access-0")
    }
    try await scenario.settle()
    callers.cancel("A")
    try await scenario.settle()
    callers.cancel("B")
    try await scenario.settle()
    server.open()
    let results = try await callers.results()
    let last = results[2]

    let answer = last.value.map { "got \($0)" } ?? "threw \(last.error.map { describe($0) } ?? "")"
    let accepted = server.currentAccessToken
    let api =
      accepted == "access-0"
      ? "no refresh had brought a new token" : "the API accepted \(accepted)"
    #expect(
      last.value == accepted && last.value != "access-0",
      scenario.explain(
        """
        Callers A, B and C reported access-0 while no refresh had answered yet. A was cancelled, \
        then B; C never was, and once every refresh had answered, \(api). Yet C \(answer). \
        Callers got: \(describe(results)).
        """,
        correctly:
          "C gets a new token the API accepts: one caller giving up, or two, leaves the others still needing it."
      )
    )
  }

  @Test("A caller who reports between two cancellations keeps its call")
  func aReportBetweenTwoCancellationsKeepsItsCall() async throws {
    let scenario = Scenario()
    let server = FakeAuthServer(scenario)
    let store = TokenStore(credentials: FakeAuthServer.validCredentials, server: server)
    let report = "accessToken(replacing: access-0)"

    let first = scenario.start(3, report) { try await store.accessToken(replacing: "access-0") }
    try await scenario.settle()
    first.cancel("A")
    try await scenario.settle()
    let late = scenario.start(1, report) { try await store.accessToken(replacing: "access-0") }
    try await scenario.settle()
    first.cancel("C")
    try await scenario.settle()
    server.open()
    let results = try await first.results() + late.results()
    let accepted = server.currentAccessToken
    let kept = [results[1], results[3]]

    #expect(
      kept.allSatisfy { $0.value == accepted && $0.value != "access-0" },
      scenario.explain(
        """
        Callers A, B and C reported access-0 while no refresh had answered yet. A was cancelled; \
        then D reported access-0 too, and C was cancelled. B and D never were, and once every \
        refresh had answered, \(accepted == "access-0" ? "no refresh had brought a new token" : "the API accepted \(accepted)"). \
        Callers got: \(describe(results)).
        """,
        correctly: "B and D each get a new token the API accepts."
      )
    )
  }

  @Test("A refresh its caller gave up on keeps what the server issued")
  func aRefreshItsCallerGaveUpOnStillLands() async throws {
    let scenario = Scenario()
    let server = FakeAuthServer(scenario)
    // A refresh called off may already be at the server: it winds down, as the test says.
    server.requests.cancellation = .windsDown
    let store = TokenStore(credentials: FakeAuthServer.expiredCredentials, server: server)

    let first = scenario.start(1, "validAccessToken()") { try await store.validAccessToken() }
    try await scenario.settle()
    first.cancel()
    try await scenario.settle()
    // The server handles refresh #1 all the same: it issues access-1 and spends refresh-0; if the
    // store called the refresh off, the answer is lost on its way back.
    server.requests.release(1, as: FakeAuthServer.handledAnyway)
    let results = try await first.results()
    server.open()
    let next = try await scenario.start(1, "validAccessToken()") {
      try await store.validAccessToken()
    }.results()

    #expect(
      next[0].value == server.currentAccessToken && server.rejectedRefreshes == 0,
      scenario.explain(
        """
        Caller A found access-0 expired, and refresh #1 went out; then A gave up, as when its \
        screen closes. The server handled refresh #1 all the same: it issued access-1 and spent \
        refresh-0. Then B asked for a valid token: \(describe(results + next)), after \
        \(server.refreshes) refreshes, \(server.rejectedRefreshes) of them turned away.
        """,
        correctly: "B gets access-1 without another refresh: refresh-0 is never presented again."
      )
    )
  }

  @Test("A valid token costs no refresh")
  func validTokenCostsNoRefresh() async throws {
    let scenario = Scenario()
    let server = FakeAuthServer(scenario)
    let store = TokenStore(credentials: FakeAuthServer.validCredentials, server: server)

    let token = try await scenario.call("validAccessToken()") { try await store.validAccessToken() }

    #expect(token == "access-0")
    #expect(server.refreshes == 0, "a token that is still valid should be used as it is")
  }

  // Three failures in a row too: a store that stops refreshing for a while after a few
  // failures hands later callers a failure they never waited for.
  @Test(
    "A failed refresh fails every caller waiting for it, and the next call refreshes again",
    arguments: [1, 3])
  func failedRefreshReachesEveryCallerAndIsRetried(failuresInARow: Int) async throws {
    let scenario = Scenario()
    let server = FakeAuthServer(scenario)
    let store = TokenStore(credentials: FakeAuthServer.expiredCredentials, server: server)

    server.failsRefreshes = true
    for _ in 1...failuresInARow {
      let callers = scenario.start(3, "validAccessToken()") { try await store.validAccessToken() }
      try await scenario.settle()
      server.open()
      let results = try await callers.results()
      #expect(
        results.allSatisfy { $0.error is FakeNetworkError },
        "every caller waiting for a failed refresh should get its error; \(describe(results))"
      )
    }

    server.failsRefreshes = false
    let refreshesBefore = server.refreshes
    let token = try await scenario.call("validAccessToken()") { try await store.validAccessToken() }
    #expect(
      server.refreshes == refreshesBefore + 1,
      "after \(failuresInARow) failed refreshes in a row, the next call should refresh again; it made \(server.refreshes - refreshesBefore) refreshes"
    )
    #expect(token == "access-\(refreshesBefore + 1)")
  }

  @Test("A caller who hears late of a failed refresh it shared leaves the next refresh alone")
  func lateNewsOfAFailedRefreshLeavesTheNextOneAlone() async throws {
    let scenario = Scenario()
    let server = FakeAuthServer(scenario)
    let store = TokenStore(credentials: FakeAuthServer.validCredentials, server: server)
    let report = "accessToken(replacing: access-0)"

    let first = scenario.start(1, report) { try await store.accessToken(replacing: "access-0") }
    try await scenario.settle()
    let sharer = scenario.start(1, report) { try await store.accessToken(replacing: "access-0") }
    try await scenario.settle()
    // Refresh #1 fails, and so does any refresh the store tries again before it gives up; A
    // hears of the failure, and B, who shared it, hears of it only after C has started the next
    // refresh.
    sharer.hold()
    server.failsRefreshes = true
    server.open()
    _ = try await first.results()
    server.close()
    server.failsRefreshes = false
    let failed = server.refreshes
    let third = scenario.start(1, report) { try await store.accessToken(replacing: "access-0") }
    try await scenario.settle()
    sharer.release()
    try await scenario.settle()
    let fourth = scenario.start(1, report) { try await store.accessToken(replacing: "access-0") }
    try await scenario.settle()
    server.open()
    let results =
      try await first.results() + sharer.results() + third.results() + fourth.results()

    let tries =
      failed == 1 ? "refresh #1, which failed" : "refreshes #1 to #\(failed), which failed"
    #expect(
      server.refreshes == failed + 1 && server.rejectedRefreshes == 0,
      scenario.explain(
        """
        Callers A and B reported access-0 and shared \(tries). A heard of it at once and C's \
        report started refresh #\(failed + 1); B heard of the failure only then, and after that \
        D reported access-0 while refresh #\(failed + 1) was still out: \
        \(server.refreshes - failed) refreshes from C's report on, \(server.rejectedRefreshes) \
        of them turned away for a refresh token used before. Callers got: \(describe(results)).
        """,
        correctly:
          "D waits for refresh #\(failed + 1) and gets its token: one refresh from C's report on."
      )
    )
  }
}

@Suite("Chapter 04: every interleaving", .testScheduler, .exposesBug)
struct TokenStoreExplorationTests {
  @Test(
    "Three reports of a refused token, at most one failure and one cancellation, cost one refresh")
  func everyInterleavingKeepsThePromise() async {
    let report = MethodCall("accessToken(replacing: access-0)", key: "the access token")
    await Exploration(
      TokenStoreWorld.self, calls: [report, report, report],
      bounds: ExplorationBounds(cancellations: 1)
    ).run()
  }

  @Test("A report of a refused token and a call that finds it expired cost one refresh")
  func everyInterleavingOfBothWaysKeepsThePromise() async {
    let report = MethodCall("accessToken(replacing: access-0)", key: "the access token")
    let expiry = MethodCall("validAccessToken()", key: "the access token")
    await Exploration(
      TokenStoreWorld.self, calls: [report, expiry],
      bounds: ExplorationBounds(cancellations: 1)
    ).run()
  }
}

/// The store in a world of its own, holding access-0, which has expired and which the API has just
/// turned away, with the promise it keeps in every schedule.
struct TokenStoreWorld: ChapterWorld {
  let server: FakeAuthServer
  let store: TokenStore

  init(_ scenario: Scenario) {
    server = FakeAuthServer(scenario)
    store = TokenStore(credentials: FakeAuthServer.expiredCredentials, server: server)
  }

  var fakes: [any FakeService] { [server] }

  func perform(_ call: MethodCall) async throws -> any Sendable {
    if call.description == "validAccessToken()" {
      return try await store.validAccessToken()
    }
    return try await store.accessToken(replacing: "access-0")
  }

  /// access-0 is replaced once: callers who report it or find it expired while it is current
  /// share one refresh, and a caller who reports it after it was replaced gets the current token
  /// without a refresh; no caller is handed back access-0; no refresh token is presented twice; a
  /// failed refresh reaches only the callers who asked while it ran or before the caller who
  /// started it returned (the promise says "heard of the failure", which is never later than
  /// that); and a caller's cancellation ends no other caller's call.
  func checkPromise(_ moment: Moment<Self>) async {
    let records = server.requests.records
    /// What callers did with access-0, as a message says it: "reported access-0".
    func did(_ callers: [CallerRecord]) -> String {
      let found = callers.map { moment.call(of: $0).description == "validAccessToken()" }
      if found.allSatisfy({ $0 }) && !found.isEmpty { return "found access-0 expired" }
      return found.contains(true) ? "reported access-0 or found it expired" : "reported access-0"
    }
    for caller in moment.callers where !caller.wasCancelled && caller.error is CancellationError {
      let cancelled = moment.callers.filter(\.wasCancelled).map(\.name)
      let calledOff = records.filter(\.wasCancelled).map(server.requests.name(of:))
      moment.expect(
        false, "one caller's cancellation ends no other call",
        """
        Caller \(caller.name) was not cancelled, yet its call ended with CancellationError: \
        caller \(cancelled.joined(separator: " and ")) was cancelled\(calledOff.isEmpty ? "" : ", and with it \(calledOff.joined(separator: " and "))"), \
        while \(caller.name) was waiting for the token. Expected \(caller.name) to get a token \
        the API accepts, or the error of a refresh that failed: one caller giving up leaves the \
        others still needing the token.
        """)
    }
    for caller in moment.callers where caller.value(as: String.self) == "access-0" {
      let failed = records.last { $0.threw && ($0.answeredAt ?? .max) < caller.startedAt }
      let why =
        failed.map {
          "\(server.requests.name(of: $0)) had failed before it asked, and no refresh started after that"
        } ?? "no refresh replaced access-0 for it"
      moment.expect(
        false, "a refused token is not handed back",
        """
        Caller \(caller.name) \(did([caller])) and was handed access-0 back: \(why). The API \
        turns that token away; expected a token the API accepts, or the error of a refresh that \
        \(caller.name) waited for.
        """)
    }
    /// The access token the server accepted at `time`.
    func current(at time: Int) -> String {
      records.last { ($0.answeredAt ?? .max) < time && !$0.threw }.map { "access-\($0.number)" }
        ?? "access-0"
    }
    for refresh in records {
      let before = moment.callers.filter { $0.startedAt < refresh.startedAt }
      let reporting = before.filter { ($0.finishedAt ?? .max) > refresh.startedAt }
      let replacement = current(at: refresh.startedAt)
      // The refresh token issued with the access token the server accepts now: a refresh that
      // presents another is turned away, and the user is signed out.
      let honoured = replacement.replacingOccurrences(of: "access-", with: "refresh-")
      let presented = server.requests.key(of: refresh.number) ?? honoured
      let harm =
        presented == honoured
        ? "Once it succeeds, it revokes \(replacement), which callers had just been given."
        : "It presents \(presented), which the server has already honoured, so the server turns it away and the user is signed out."
      moment.expect(
        replacement == "access-0", "a token is replaced once",
        """
        \(server.requests.name(of: refresh)) started when access-0 had already been replaced by \
        \(replacement); \(waitingThen(reporting.map(\.name))) \(did(reporting.isEmpty ? before : reporting)), which needed \
        no second replacement. \(harm)
        """)
    }
    moment.expectOneRequestAtATime(
      per: server.requests, keepsSuccess: true, succeeded: { !$0.threw })
    moment.expectAgreement(on: String.self)
    let forTheToken: (Requests.Record) -> String = { _ in "the access token" }
    moment.expectFailuresAreFresh(server.requests, failed: \.threw, subject: forTheToken)
  }
}

/// The callers still waiting at some moment, as a message names them: "B, the caller still waiting
/// then, had", "B and C, the callers still waiting then, had all".
private func waitingThen(_ names: [String]) -> String {
  switch names.count {
  case 0: "every caller had"
  case 1: "\(names[0]), the caller still waiting then, had"
  default:
    "\(names.dropLast().joined(separator: ", ")) and \(names.last!), the callers still waiting "
      + "then, had all"
  }
}
