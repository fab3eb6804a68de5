/// What one test did.
struct TestVerdict: Codable {
  enum Outcome: String, Codable {
    case passed
    case failed
    /// In the self-check of a starter: the test failed, as its `.exposesBug` trait declares.
    case failedAsExpected = "failed as expected"
    /// The test started but never ended, because the test process crashed or was stopped.
    case didNotFinish = "did not finish"
    /// The test never started: the test process crashed or was stopped before its turn came.
    case notRun = "did not run"
  }

  /// The test's display name, which graders see in both `results.json` and JUnit XML.
  let name: String
  /// The type that declares the test, as Swift Testing names it, such as
  /// `Chapter01Tests.ImageCacheConcurrencyTests`: the test case's class name in JUnit XML.
  var suite = ""
  let outcome: Outcome
  /// What the failed expectations said, each with its explanation and timeline.
  let messages: [String]
  /// Where the first issue was recorded, as `File.swift:12`.
  let location: String?
  /// The test's statements, read from its file.
  var code: String?
  /// What the code under test printed while this test ran, when the run could tell.
  var output: String?
  /// How long the test ran, from its start to its end.
  var seconds: Double?
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
