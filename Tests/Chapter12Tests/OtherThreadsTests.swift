import Foundation
import Services
import Testing
import WorkbookTestSupport

@testable import Chapter12

@Suite("Chapter 12: calls from other threads")
struct StatementLoaderThreadTests {
  @Test("A caller cancelled on one thread while the client answers on another hears back once")
  func cancelledWhileTheClientAnswers() async {
    // A bridge that resumes twice ends the process it runs in: in a process of its own, that ends
    // this test, not the whole run.
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
      ChildProcess.record(to: log)
      // Many rounds, so that the two threads meet in the ways this machine allows; whether or not
      // they collide in a round, state the bridge shares with them without a lock is a data race,
      // which `swift test --sanitize=thread` reports.
      for _ in 0..<100 {
        let scenario = Scenario()
        let client = ThreadedStatementClient()
        let loader = StatementLoader(client: client)
        let caller = scenario.start(1, "statement(for: 2026-10)") {
          try await loader.statement(for: "2026-10")
        }
        let fetch = await client.firstFetch()
        await onOtherThreads([{ fetch.answer() }, { caller.cancel() }])
        let result = try await caller.results()[0].result
        let heard: Bool =
          switch result {
          case .success(let statement): statement.month == "2026-10"
          case .failure(let error): error is CancellationError
          }
        #expect(
          heard,
          scenario.explain(
            """
            The client answered on its own thread while the caller was cancelled on another, and \
            the caller got \(result); expected the statement or CancellationError.
            """, correctly: "A gets the statement, or throws CancellationError, once."))
      }
    }
  }
}
