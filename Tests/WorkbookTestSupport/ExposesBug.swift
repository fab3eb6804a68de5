import Foundation
import ScheduleExplorer
import Testing

/// Marks the tests that show a chapter's bug: they fail on the starter and pass on a correct fix.
///
/// A student sees them fail like any other test. The workbook's self-check (`Scripts/verify`) runs
/// the starters with `WORKBOOK_VERIFY=starters`; there each such test must fail, and a failure is
/// counted as expected. A starter that passes one of them, or that fails by running out of time,
/// is reported as a broken workbook.
public struct ExposesBug: SuiteTrait, TestTrait, TestScoping {
  public var isRecursive: Bool { true }

  public func provideScope(
    for test: Test,
    testCase: Test.Case?,
    performing function: @Sendable () async throws -> Void
  ) async throws {
    guard !test.isSuite, ProcessInfo.processInfo.environment["WORKBOOK_VERIFY"] == "starters" else {
      return try await function()
    }
    let bugSeen = Locked(false)
    try await withKnownIssue("the starter's bug", isIntermittent: true) {
      try await function()
    } matching: { issue in
      if case .errorCaught(let error) = issue.kind, error is TimeLimitExceeded {
        return false
      }
      bugSeen.withLock { $0 = true }
      return true
    }
    if !bugSeen.value {
      Issue.record(
        "The starter passed this test, which should expose its bug: the chapter no longer teaches what its lesson says."
      )
    }
  }
}

extension Trait where Self == ExposesBug {
  /// The test fails on the chapter's starter and passes on a correct fix.
  public static var exposesBug: Self { Self() }
}
