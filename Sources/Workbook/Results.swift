/// A run's verdicts in the shape of Exercism's test-runner `results.json`, which graders already
/// read: an overall `status` (`pass`, `fail`, or `error` when no test could run), a `message` that
/// says why for `error`, and one entry per test, in the order of the test files.
///
/// It is version 2 of the interface, not 3: version 3 adds a `task_id` that links a test to one
/// numbered task of an exercise's instructions, and a chapter is one task, whose lesson numbers
/// none. Every test of a check would carry the same id, which tells a grader nothing.
struct Results: Encodable {
  /// The version of the interface this file follows.
  static let version = 2
  /// The interface caps the top-level `message` at 65,535 characters, fewer when some take more
  /// than a byte: it is kept within 65,535 bytes of UTF-8.
  static let messageLimit = 65_535
  /// The interface caps each test's `output` at 500 characters, and names the note to end a
  /// truncated one with.
  static let outputLimit = 500
  static let truncatedOutput = "Output was truncated. Please limit to 500 chars"

  enum Status: String, Encodable {
    case pass
    case fail
    case error
  }

  struct Test: Encodable {
    /// The name graders see, the same in `results.json` and in JUnit XML.
    let name: String
    let status: Status
    /// What the failed expectations said, or why the test could not finish; the interface
    /// requires it for `fail` and `error`.
    let message: String?
    /// What the code under test printed during the test, within ``Results/outputLimit``.
    let output: String?
    /// The test's statements, as its file has them.
    var testCode: String?
    /// JUnit's class name: the type that declares the test, or `workbook` for the workbook's
    /// own checks. Not part of `results.json`.
    var classname = "workbook"
    /// How long the test ran, for JUnit. Not part of `results.json`.
    var seconds: Double?
    /// Everything printed during the test, for JUnit's `system-out`.
    var printed: String?

    init(name: String, status: Status, message: String?, output: String?) {
      self.name = name
      self.status = status
      let said = message.flatMap { $0.isEmpty ? nil : $0 }
      self.message =
        said
        ?? (status == .pass ? nil : status == .fail ? "the test failed." : "the test errored.")
      let printed = output.flatMap { $0.isEmpty ? nil : $0 }
      self.output = printed.map(Results.capped)
      self.printed = printed
    }

    /// A check of the workbook's own: it passes when it found no problem.
    init(_ name: String, problems: [String]) {
      self.init(
        name: name, status: problems.isEmpty ? .pass : .fail,
        message: problems.isEmpty ? nil : problems.joined(separator: "\n"), output: nil)
    }

    enum CodingKeys: String, CodingKey {
      case name, status, message, output
      case testCode = "test_code"
    }

    // `message` is always written, `null` when there is none, as the interface allows; `output`
    // and `test_code` only when there is something to show.
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(name, forKey: .name)
      try container.encode(status, forKey: .status)
      try container.encode(message, forKey: .message)
      try container.encodeIfPresent(output, forKey: .output)
      try container.encodeIfPresent(testCode, forKey: .testCode)
    }
  }

  let status: Status
  let message: String?
  let tests: [Test]

  /// The overall status follows from the tests: `error` when none of them could run to its end
  /// (the interface keeps `error` for that), `fail` when any did not pass.
  init(tests: [Test], error: String? = nil) {
    self.tests = tests
    if error != nil || tests.allSatisfy({ $0.status == .error }) {
      status = .error
      message = Self.cappedMessage(error ?? tests.compactMap(\.message).first ?? "no test ran.")
    } else {
      status = tests.allSatisfy { $0.status == .pass } ? .pass : .fail
      message = nil
    }
  }

  /// The tests of one chapter's report, each name after `prefix`.
  static func tests(of report: ChapterReport, prefix: String = "") -> [Test] {
    report.tests.map { test in
      var result: Test
      switch test.outcome {
      case .passed, .failedAsExpected:
        result = Test(name: prefix + test.name, status: .pass, message: nil, output: test.output)
      case .failed:
        result = Test(
          name: prefix + test.name, status: .fail,
          message: test.messages.joined(separator: "\n\n"), output: test.output)
      case .didNotFinish:
        let why = report.verdict == .crashed ? "The tests crashed while this test ran: " : ""
        result = Test(
          name: prefix + test.name, status: .error,
          message: (why.isEmpty ? "This test did not finish. " : why) + (report.problem ?? ""),
          output: test.output)
      case .notRun:
        let why = report.verdict == .crashed ? ": the tests crashed before its turn" : ""
        result = Test(
          name: prefix + test.name, status: .error,
          message: "This test did not run\(why). " + (report.problem ?? ""), output: nil)
      }
      result.testCode = test.code
      result.classname = test.suite
      result.seconds = test.seconds
      return result
    }
  }

  /// `output` within 500 characters (Unicode scalars, as the interface's own tools count them),
  /// the note included.
  static func capped(_ output: String) -> String {
    guard output.unicodeScalars.count > outputLimit else { return output }
    let room = outputLimit - truncatedOutput.unicodeScalars.count - 1
    return prefix(of: output, within: room) { $0.unicodeScalars.count } + "\n" + truncatedOutput
  }

  /// `message` within ``messageLimit`` bytes, cut at the end of a line, with a note that says so.
  static func cappedMessage(_ message: String) -> String {
    guard message.utf8.count > messageLimit else { return message }
    let note =
      "\n… (cut: the whole text is \(message.count) characters; results.json allows "
      + "\(messageLimit))"
    let kept = prefix(of: message, within: messageLimit - note.utf8.count) { $0.utf8.count }
    let line = kept.lastIndex(of: "\n").map { String(kept[..<$0]) } ?? kept
    return line + note
  }

  /// The longest run of whole characters at the start of `text` whose `size` is at most `room`.
  private static func prefix(
    of text: String, within room: Int, size: (Character) -> Int
  ) -> String {
    var used = 0
    var end = text.startIndex
    for index in text.indices {
      used += size(text[index])
      if used > room { break }
      end = text.index(after: index)
    }
    return String(text[..<end])
  }

  enum CodingKeys: String, CodingKey {
    case version, status, message, tests
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(Self.version, forKey: .version)
    try container.encode(status, forKey: .status)
    try container.encode(message, forKey: .message)
    try container.encode(tests, forKey: .tests)
  }
}
