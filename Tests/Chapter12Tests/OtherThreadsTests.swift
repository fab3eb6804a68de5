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
      try await StatementLoaderThreadTests.answerWhileCancelling()
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
      try await StatementLoaderThreadTests.answerWhileStarting()
    }
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
      let cancel = Locked<@Sendable () -> Void>({})
      let threads = Locked<OtherThreads?>(nil)
      let client = ThreadedStatementClient { fetch in
        let cancelling = OtherThreads([{ fetch.answer() }, cancel.value])
        threads.withLock { $0 = cancelling }
        if round.isMultiple(of: 2) { cancelling.waitWithoutOrdering() }
      }
      let loader = StatementLoader(client: client)
      let caller = scenario.start(1, "statement(for: 2026-10)") {
        try await loader.statement(for: "2026-10")
      }
      cancel.withLock { $0 = caller.cancellation() }
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
