import Foundation
import ScheduleExplorer
import Services
import Testing
import WorkbookTestSupport

@testable import Chapter12

@Suite("Chapter 12: calls from other threads", .testScheduler)
struct StatementLoaderThreadTests {
  @Test("A caller cancelled on one thread while the client answers on another hears back once")
  func cancelledWhileTheClientAnswers() async throws {
    // A bridge that resumes twice ends the process it runs in: in a process of its own, that ends
    // this test, not the whole run. Under the sanitizer, whose run is a process of its own
    // anyway, the rounds run here.
    if OtherThreads.areSanitized {
      try await Self.answerWhileCancelling()
      return
    }
    let child = ChildProcess()
    await #expect(
      processExitsWith: .success,
      child.explain(
        """
        The client answered on its own thread while the caller was cancelled on another; the \
        caller should have heard back once, with the statement or CancellationError.
        """,
        correctly: "A gets the statement, or throws CancellationError, once.")
    ) { [log = child.log as String] in
      await ChildProcess.record(to: log)
      await ChildProcess.run { try await StatementLoaderThreadTests.answerWhileCancelling() }
    }
  }

  @Test("A caller cancelled on one thread while it is still starting its request hears back once")
  func cancelledWhileStarting() async throws {
    if OtherThreads.areSanitized {
      try await Self.answerWhileStarting()
      return
    }
    let child = ChildProcess()
    await #expect(
      processExitsWith: .success,
      child.explain(
        """
        While the caller was still starting its request, the client answered on one thread and \
        the caller was cancelled on another; the caller should have heard back once, with the \
        statement or CancellationError.
        """,
        correctly: "A gets the statement, or throws CancellationError, once.")
    ) { [log = child.log as String] in
      await ChildProcess.record(to: log)
      await ChildProcess.run { try await StatementLoaderThreadTests.answerWhileStarting() }
    }
  }

  @Test("A caller whose client answers before its request has even returned gets the statement")
  func answeredBeforeTheRequestReturns() async throws {
    // The client's thread answers, and is done, while the caller is still inside
    // `fetchStatement`: the answer comes before the request it answers.
    let scenario = Scenario()
    let client = ThreadedStatementClient { fetch in
      OtherThreads([{ fetch.answer() }]).waitWithoutOrdering()
    }
    let loader = StatementLoader(client: client)
    let caller = scenario.start(1, "statement(for: 2026-10)") {
      try await loader.statement(for: "2026-10")
    }
    // Throws, with the timeline, if the caller never hears back.
    let result = try await caller.results()[0].result
    let month = try? result.get().month

    #expect(
      month == "2026-10",
      scenario.explain(
        """
        The client answered on its own thread with the statement for 2026-10 before \
        fetchStatement had returned to the caller; the caller got \(result).
        """,
        correctly: "A gets the statement for 2026-10."))
  }

  /// The client answers on its own thread while the caller is cancelled on another, once the
  /// request has started.
  private static func answerWhileCancelling() async throws {
    // Many rounds, so that the two threads meet in the ways this machine allows; state the
    // bridge shares with them with nothing ordering the accesses is a data race, which
    // `Scripts/check-threads` can report even in a round where they did not overlap.
    for _ in 0..<OtherThreads.rounds {
      let scenario = Scenario()
      let client = ThreadedStatementClient()
      let loader = StatementLoader(client: client)
      let caller = scenario.start(1, "statement(for: 2026-10)") {
        try await loader.statement(for: "2026-10")
      }
      let fetch = await client.firstFetch()
      await onOtherThreads([{ fetch.answer() }, caller.cancellation()])
      try await expectOneAnswer(
        from: caller, in: scenario,
        when: "The client answered on its own thread while the caller was cancelled on another")
    }
  }

  /// The same two threads, started by the client from inside `fetchStatement`, so that they
  /// answer and cancel while the caller's job is still running: in every other round,
  /// `fetchStatement` returns only once both are done (or a second has passed), in the others at
  /// once, so that they meet the code after it.
  private static func answerWhileStarting() async throws {
    for round in 0..<OtherThreads.rounds {
      let scenario = Scenario()
      let threads = Locked<OtherThreads?>(nil)
      // The hook names the caller itself: it runs inside the caller's own call, which may come
      // before the test's next line.
      let client = ThreadedStatementClient { fetch in
        let cancelling = OtherThreads([
          { fetch.answer() }, scenario.cancellationOnAnotherThread(of: "A"),
        ])
        threads.withLock { $0 = cancelling }
        if round.isMultiple(of: 2) { cancelling.waitWithoutOrdering() }
      }
      let loader = StatementLoader(client: client)
      let caller = scenario.start(1, "statement(for: 2026-10)") {
        try await loader.statement(for: "2026-10")
      }
      _ = await client.firstFetch()
      await threads.value?.finished()
      try await expectOneAnswer(
        from: caller, in: scenario,
        when: """
          While the caller was still starting its request, the client answered on one thread \
          and the caller was cancelled on another
          """)
    }
  }
}

@Suite("Chapter 12: a cancellation from another thread", .testScheduler, .exposesBug)
struct StatementLoaderCancellationThreadTests {
  @Test(
    "A caller cancelled on another thread while it is still starting its request calls its fetch off"
  )
  func cancelledWhileStartingCallsTheFetchOff() async throws {
    if OtherThreads.areSanitized {
      try await StatementLoaderThreadTests.cancelWhileStarting()
      return
    }
    let child = ChildProcess()
    await #expect(
      processExitsWith: .success,
      child.explain(
        """
        While the caller was still starting its request, it was cancelled on another thread, and \
        the service never answered; the caller should have thrown CancellationError, and its \
        fetch should have been called off.
        """,
        correctly: "A throws CancellationError, and fetch #1 is called off.")
    ) { [log = child.log as String] in
      await ChildProcess.record(to: log)
      await ChildProcess.run { try await StatementLoaderThreadTests.cancelWhileStarting() }
    }
  }
}

extension StatementLoaderThreadTests {
  /// The caller is cancelled on another thread from inside `fetchStatement`, which returns only
  /// once the cancellation is done (or a second has passed), and the service never answers: a
  /// cancellation that lands while the request is being started must still call it off, and
  /// must not leave the caller waiting for an answer.
  static func cancelWhileStarting() async throws {
    for _ in 0..<OtherThreads.rounds {
      let scenario = Scenario()
      let threads = Locked<OtherThreads?>(nil)
      // The hook names the caller itself: it runs inside the caller's own call, which may come
      // before the test's next line.
      let client = ThreadedStatementClient { _ in
        let cancelling = OtherThreads([scenario.cancellationOnAnotherThread(of: "A")])
        threads.withLock { $0 = cancelling }
        cancelling.waitWithoutOrdering()
      }
      let loader = StatementLoader(client: client)
      let caller = scenario.start(1, "statement(for: 2026-10)") {
        try await loader.statement(for: "2026-10")
      }
      let fetch = await client.firstFetch()
      // On a busy machine the cancelling thread may still be on its way: the scheduler cannot
      // see it, so the test waits for it before it looks for the caller's answer.
      await threads.value?.finished()
      // Throws, with the timeline, if the caller never returns.
      let result = try await caller.results()[0].result
      let threw: Bool
      if case .failure(let error) = result {
        threw = error is CancellationError
      } else {
        threw = false
      }
      #expect(
        threw && fetch.wasCalledOff,
        scenario.explain(
          """
          The caller was cancelled on another thread while it was still starting its request, \
          and the service never answered. The caller \
          \(threw ? "threw CancellationError" : "got \(result)"), and fetch #1 \
          \(fetch.wasCalledOff ? "was called off" : "was never called off: the service went on working for a caller who had gone").
          """,
          correctly: "A throws CancellationError, and fetch #1 is called off."))
      // One round that shows the gap is enough to read.
      if !(threw && fetch.wasCalledOff) { return }
    }
  }
}

/// Expects the caller of October's statement to have heard back once, with the statement or with
/// `CancellationError`: both are right when the answer and the cancellation meet.
private func expectOneAnswer(
  from caller: Callers<Statement>, in scenario: Scenario, when what: String,
  sourceLocation: SourceLocation = #_sourceLocation
) async throws {
  let result = try await caller.results()[0].result
  let heard: Bool =
    switch result {
    case .success(let statement): statement.month == "2026-10"
    case .failure(let error): error is CancellationError
    }
  #expect(
    heard,
    scenario.explain(
      "\(what); the caller got \(result), and expected the statement or CancellationError.",
      correctly: "A gets the statement, or throws CancellationError, once."),
    sourceLocation: sourceLocation)
}
