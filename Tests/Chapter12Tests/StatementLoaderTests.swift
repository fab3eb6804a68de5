import ScheduleExplorer
import Services
import Testing
import WorkbookTestSupport

@testable import Chapter12

private let october = "2026-10"
private let november = "2026-11"

/// A world of one loader over a fake legacy client, and the callers a test starts in it.
private struct Loading {
  let scenario = Scenario()
  let client: FakeStatementClient
  let loader: StatementLoader

  init() {
    client = FakeStatementClient(scenario)
    loader = StatementLoader(client: client)
  }

  /// Starts one caller asking for the statement of `month`.
  func ask(for month: String) -> Callers<Statement> {
    scenario.start(1, "statement(for: \(month))") { [loader] in
      try await loader.statement(for: month)
    }
  }

  /// What the first caller named `name` got, once it has returned; `nil` if it never returns.
  func answer(of callers: Callers<Statement>) async -> CallerRecord? {
    guard await scenario.wait(until: { callers.allFinished }) else { return nil }
    return scenario.callers.first { $0.name == callers.names[0] }
  }
}

/// What a caller that has returned heard: `got statement #1 of 2026-11`, `threw LegacyTimeout`.
private func heard(_ caller: CallerRecord) -> String {
  switch caller.result {
  case .success(let value)?: "got \(describe(value))"
  case .failure(let error)?: "threw \(describe(error))"
  case nil: "had not returned"
  }
}

@Suite("Chapter 12: every caller hears back, exactly once", .testScheduler, .exposesBug)
struct OneAnswerTests {
  @Test("A fetch that times out and then answers anyway reaches its caller once")
  func timeoutThenStatementIsOneAnswer() async {
    let child = ChildProcess()
    await #expect(
      processExitsWith: .success,
      child.explain(
        """
        The client called back twice for one fetch, as it does when a request times out and the \
        statement arrives after all: first with LegacyTimeout, then with the statement. Caller A \
        should have heard one of the two, once, and the test should have gone on.
        """,
        correctly: """
          A hears back once, with LegacyTimeout or the statement; the other callback changes \
          nothing.
          """
      )
    ) { [log = child.log as String] in
      await ChildProcess.record(to: log)
      let world = Loading()
      let caller = world.ask(for: november)
      _ = await world.scenario.wait { world.client.requests.waiting == [1] }
      world.client.requests.release(1, as: "twice")
      let answer = await world.answer(of: caller)
      let statement = FakeStatementClient.statement(1, month: november)
      let heardOneOfThem =
        answer?.error is LegacyTimeout || answer?.value(as: Statement.self) == statement
      #expect(
        heardOneOfThem,
        world.scenario.explain(
          """
          The client called back twice for fetch #1, first with LegacyTimeout, then with the \
          statement; caller A \(answer.map(heard) ?? "never returned"). \
          It should hear one of the two.
          """,
          correctly: """
            A throws LegacyTimeout or returns statement #1 of 2026-11, and the other callback \
            changes nothing.
            """))
    }
  }

  @Test("A month the service holds no statement for still answers its caller")
  func noStatementStillAnswers() async throws {
    let world = Loading()
    let caller = world.ask(for: october)
    try await world.scenario.settle()
    world.client.requests.release(1, as: "neither")
    let answer = await world.answer(of: caller)

    let heardBack = answer?.error != nil
    #expect(
      heardBack,
      world.scenario.explain(
        answer.map {
          """
          The client called back with neither a statement nor an error, which it does when the \
          service holds no statement for the month, and caller A \(heard($0)): a \
          statement the service never sent.
          """
        }
          ?? """
          The client called back with neither a statement nor an error, which it does when the \
          service holds no statement for the month, and caller A never returned. When everything \
          had settled, nothing was left that could resume it: the client had called back for the \
          last time, and the continuation A waits on was never resumed.
          """,
        correctly: "A throws an error that says there is no statement for 2026-10."))
  }

  @Test("Cancelling a caller calls off its fetch, and the caller returns at once")
  func cancellingCallsOffTheFetch() async throws {
    let world = Loading()
    let caller = world.ask(for: november)
    try await world.scenario.settle()
    caller.cancel()
    let answer = await world.answer(of: caller)
    let calledOff = world.client.wasCancelled(1)
    let returnedAtOnce = answer?.error is CancellationError
    let stoppedBoth = returnedAtOnce && calledOff

    #expect(
      stoppedBoth,
      world.scenario.explain(
        """
        Caller A's task was cancelled while fetch #1 was waiting for the service. Afterwards \
        \(calledOff ? "fetch #1 was called off" : "fetch #1 was still running: the service went on working for a caller who had gone"), \
        and A \(answer.map(heard) ?? "was still waiting"). \
        Cancelling a task does not reach the legacy client, which knows nothing of tasks.
        """,
        correctly: "fetch #1 is called off, and A throws CancellationError at once."))
    // A fetch still running is let finish, so that nothing of this test is left waiting.
    world.client.open()
  }

  @Test("A caller cancelled before it asks leaves no fetch running")
  func callerCancelledBeforeItAsksStartsNothing() async throws {
    let world = Loading()
    // After a settle the test runs on the scheduler's one thread, so the caller started next
    // cannot run before the test has cancelled it.
    try await world.scenario.settle()
    let caller = world.ask(for: november)
    caller.cancel()
    let answer = await world.answer(of: caller)
    let running = world.client.running
    let returnedAtOnce = answer?.error is CancellationError
    let leftNothingRunning = returnedAtOnce && running.isEmpty

    #expect(
      leftNothingRunning,
      world.scenario.explain(
        """
        Caller A's task was cancelled before A asked for its statement. Afterwards \
        \(running.isEmpty ? "no fetch was running" : "fetch #\(running[0].number) was running, for a caller who had gone before it asked"), \
        and A \(answer.map(heard) ?? "was still waiting"). Code that \
        reacts to a cancellation can run before the work it guards has even started.
        """,
        correctly: "no fetch is left running, and A throws CancellationError at once."))
    world.client.open()
  }
}

@Suite("Chapter 12: what the loader must keep doing", .testScheduler)
struct StatementLoaderGuardTests {
  @Test("A statement reaches its caller")
  func statementReachesItsCaller() async throws {
    let world = Loading()
    world.client.open()
    let statement = try await world.scenario.call("statement(for: 2026-11)") {
      try await world.loader.statement(for: november)
    }

    #expect(
      statement == FakeStatementClient.statement(1, month: november),
      "the client answered with statement #1 of 2026-11, but the caller got \(describe(statement))"
    )
  }

  @Test("An error reaches its caller")
  func errorReachesItsCaller() async throws {
    let world = Loading()
    let caller = world.ask(for: november)
    try await world.scenario.settle()
    world.client.requests.release(1, as: "error")
    let answer = await world.answer(of: caller)

    let heardTheError = answer?.error is FakeNetworkError
    #expect(
      heardTheError,
      world.scenario.explain(
        """
        The client called back once, with an error, and caller A \
        \(answer.map(heard) ?? "never returned"). A failure the client \
        reports is the caller's answer.
        """,
        correctly: "A throws the client's error."))
  }

  @Test("Cancelling one caller leaves another caller's fetch running")
  func cancellingOneCallerSparesTheOther() async throws {
    let world = Loading()
    let first = world.ask(for: october)
    let second = world.ask(for: november)
    try await world.scenario.settle()
    first.cancel()
    try await world.scenario.settle()
    let secondCalledOff = world.client.wasCancelled(2)
    world.client.open()
    let answer = await world.answer(of: second)

    let secondWasSpared = !secondCalledOff && answer?.value(as: Statement.self) != nil
    #expect(
      secondWasSpared,
      world.scenario.explain(
        """
        Callers A and B each had a fetch under way when A's task was cancelled. \
        \(secondCalledOff ? "B's fetch #2 was called off too" : "B's fetch #2 kept running"), \
        and B \(answer.map(heard) ?? "never returned"). Only the \
        cancelled caller's fetch should stop.
        """,
        correctly: "fetch #2 runs on, and B gets statement #2 of 2026-11."))
  }

  @Test("A caller cancelled after its statement arrived hears back once")
  func cancelledAfterTheAnswerHearsBackOnce() async {
    let child = ChildProcess()
    await #expect(
      processExitsWith: .success,
      child.explain(
        """
        Fetch #1 called back with the statement, and caller A's task was cancelled before A \
        had resumed to take it. A should have heard back once, and the test should have gone on.
        """,
        correctly: "A gets statement #1 of 2026-11 (or throws CancellationError), once.")
    ) { [log = child.log as String] in
      await ChildProcess.record(to: log)
      let world = Loading()
      let caller = world.ask(for: november)
      _ = await world.scenario.wait { world.client.requests.waiting == [1] }
      caller.hold()
      world.client.release(1)
      try? await caller.waitUntilReadyToResume()
      caller.cancel()
      caller.release()
      let answer = await world.answer(of: caller)
      let statement = FakeStatementClient.statement(1, month: november)

      let heardOnce =
        answer?.value(as: Statement.self) == statement || answer?.error is CancellationError
      #expect(
        heardOnce,
        world.scenario.explain(
          """
          Fetch #1 called back with the statement, and caller A's task was cancelled before A \
          had resumed; A \(answer.map(heard) ?? "never returned").
          """,
          correctly: "A gets statement #1 of 2026-11 (or throws CancellationError)."))
    }
  }
}

@Suite("Chapter 12: every interleaving", .testScheduler, .exposesBug)
struct StatementLoaderExplorationTests {
  @Test(
    "Two callers of one month each hear back once: fetches answered oldest first, at most one unusual answer, one hold, one cancellation"
  )
  func everyInterleavingKeepsThePromise() async {
    // A schedule may resume a continuation twice; in a process of its own, that ends this test,
    // not the whole run.
    let child = ChildProcess()
    await #expect(
      processExitsWith: .success,
      child.explain(
        "Every schedule of two callers should have run to its end, each caller hearing back once.",
        correctly: "every caller hears back once, and nothing is resumed twice.")
    ) { [log = child.log as String] in
      await ChildProcess.record(to: log)
      await Exploration(
        StatementLoaderWorld.self,
        calls: [.statement(for: october), .statement(for: october)],
        // The two callers make the same call, and each fetch is its caller's own: answering B's
        // fetch before A's shows nothing that answering A's first does not, with the names
        // swapped, so the oldest waiting fetch is always the one answered.
        bounds: ExplorationBounds(unusualOutcomes: 1, holds: 1, cancellations: 1, reorderings: 0)
      ).run()
    }
  }
}

/// A loader over a fake legacy client, with the promise it keeps in every schedule.
struct StatementLoaderWorld: ChapterWorld {
  struct Call: ExploredCall {
    let month: String

    static func statement(for month: String) -> Self { Self(month: month) }

    var key: String? { month }
    var description: String { "statement(for: \(month))" }
  }

  let client: FakeStatementClient
  let loader: StatementLoader

  init(_ scenario: Scenario) {
    client = FakeStatementClient(scenario)
    loader = StatementLoader(client: client)
  }

  var fakes: [any FakeService] { [client] }

  func perform(_ call: Call) async throws -> any Sendable {
    try await loader.statement(for: call.month)
  }

  /// Every caller hears back exactly once: with what its own fetch answered (the statement, the
  /// error, an error when the service holds no statement, the timeout for a fetch that times out,
  /// and for a fetch that answers twice either the timeout or the late statement), or with
  /// `CancellationError` once its task is cancelled, at once, and then its fetch is called off. A
  /// caller whose fetch has answered, or whose task is cancelled, is not left waiting; no fetch
  /// runs on for a cancelled caller, and no other caller's fetch is called off.
  func checkPromise(_ moment: Moment<Self>) async {
    for caller in moment.callers {
      let month = moment.call(of: caller).month
      let fetch = client.requests.records.first { $0.caller == caller.name }
      if let fetch, fetch.wasCancelled, !caller.wasCancelled {
        moment.expect(
          false, "only a cancelled caller's fetch is called off",
          """
          \(client.requests.name(of: fetch)) was called off, but caller \(caller.name), whose \
          fetch it was, had not been cancelled.
          """)
      }
      if caller.hasFinished {
        expectOwnAnswer(of: caller, fetch: fetch, month: month, in: moment)
        continue
      }
      guard !moment.someoneIsHeld else { continue }
      if caller.wasCancelled {
        moment.expect(
          false, "a cancelled caller returns at once",
          """
          Caller \(caller.name)'s task was cancelled, and when everything had settled, \
          \(caller.name) was still waiting\(fetch.map { " for \(client.requests.name(of: $0))" } ?? "").
          """)
      } else if let fetch, fetch.isAnswered {
        moment.expect(
          false, "a caller hears back when its fetch answers",
          """
          \(client.requests.name(of: fetch)) answered (\(fetch.outcome ?? "")), and when \
          everything had settled, caller \(caller.name) was still waiting: nothing was left \
          that could resume it.
          """)
      }
      if let fetch, fetch.isInFlight, caller.wasCancelled {
        moment.expect(
          false, "a cancelled caller's fetch is called off",
          """
          Caller \(caller.name)'s task was cancelled, but \(client.requests.name(of: fetch)) was \
          still running for it.
          """)
      }
    }
  }

  /// What a caller that has returned heard is its own fetch's answer, or its cancellation.
  private func expectOwnAnswer(
    of caller: CallerRecord, fetch: Requests.Record?, month: String, in moment: Moment<Self>
  ) {
    if caller.error is CancellationError {
      moment.expect(
        caller.wasCancelled, "a caller hears its own fetch's answer",
        "Caller \(caller.name) threw CancellationError, but its task had not been cancelled.")
      return
    }
    guard let fetch, let answeredAt = fetch.answeredAt, answeredAt < (caller.finishedAt ?? 0)
    else {
      moment.expect(
        false, "a caller hears its own fetch's answer",
        "Caller \(caller.name) \(heard(caller)) before any fetch of \(month) had answered.")
      return
    }
    let statement = FakeStatementClient.statement(fetch.number, month: month)
    let got = caller.value(as: Statement.self)
    let expected: (heard: Bool, what: String) =
      switch fetch.outcome {
      case "statement": (got == statement, "\(describe(statement))")
      case "error": (caller.error is FakeNetworkError, "the client's error")
      case "neither": (caller.error != nil, "an error: the service holds no statement")
      case "twice":
        (caller.error is LegacyTimeout || got == statement, "LegacyTimeout, or the statement")
      case "timeout": (caller.error is LegacyTimeout, "LegacyTimeout")
      default: (caller.wasCancelled, "CancellationError, its fetch having been called off")
      }
    moment.expect(
      expected.heard, "a caller hears its own fetch's answer",
      """
      \(client.requests.name(of: fetch)) answered (\(fetch.outcome ?? "")), and caller \
      \(caller.name) \(heard(caller)); it should have heard \(expected.what).
      """)
  }
}
