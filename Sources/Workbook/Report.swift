/// What one test did.
struct TestVerdict: Codable {
  enum Outcome: String, Codable {
    case passed
    case failed
    /// In the self-check of a starter: the test failed, as its `.exposesBug` trait declares.
    case failedAsExpected = "failed as expected"
    /// The test started but never ended, because the test process crashed or was stopped.
    case didNotFinish = "did not finish"
  }

  let name: String
  let outcome: Outcome
  /// What the failed expectations said, each with its explanation and timeline.
  let messages: [String]
  /// Where the first issue was recorded, as `File.swift:12`.
  let location: String?
}

/// What a chapter's suite said about the code it ran against.
struct ChapterReport: Codable {
  enum Verdict: String, Codable {
    /// Every test passed.
    case done
    /// Some tests failed.
    case failing
    /// The chapter's code does not compile.
    case doesNotCompile = "does not compile"
    /// The test process crashed, for example on a `fatalError` or a force-unwrapped `nil`.
    case crashed
    /// The tests ran past the workbook's time limit, so it stopped them.
    case timedOut = "timed out"
  }

  let chapter: String
  let title: String
  let verdict: Verdict
  let passed: Int
  let total: Int
  let tests: [TestVerdict]
  /// The compiler's errors, where the crash happened, or why the tests were stopped.
  let problem: String?
}
