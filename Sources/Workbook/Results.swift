/// A run's verdicts in the shape of Exercism's test-runner `results.json`, version 2, which
/// graders already read: an overall `status` (`pass`, `fail`, or `error` when no test could run),
/// a `message` that says why for `error`, and one entry per test.
struct Results: Encodable {
  enum Status: String, Encodable {
    case pass
    case fail
    case error
  }

  struct Test: Encodable {
    let name: String
    let status: Status
    /// What the failed expectations said, or why the test could not finish.
    let message: String?
    /// What the student's code printed during the test. Swift Testing does not say which test
    /// printed a line, so the workbook leaves it empty.
    let output: String?

    init(name: String, status: Status, message: String?, output: String?) {
      self.name = name
      self.status = status
      self.message = message
      self.output = output
    }

    /// A check of the workbook's own: it passes when it found no problem.
    init(_ name: String, problems: [String]) {
      self.init(
        name: name, status: problems.isEmpty ? .pass : .fail,
        message: problems.isEmpty ? nil : problems.joined(separator: "\n"), output: nil)
    }

    enum CodingKeys: String, CodingKey {
      case name, status, message, output
    }

    // Every key is written, `null` included, so that a grader never has to guess.
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(name, forKey: .name)
      try container.encode(status, forKey: .status)
      try container.encode(message, forKey: .message)
      try container.encode(output, forKey: .output)
    }
  }

  let status: Status
  let message: String?
  let tests: [Test]

  /// The overall status follows from the tests: `error` when none of them could run to its end
  /// (the spec keeps `error` for that), `fail` when any did not pass.
  init(tests: [Test], error: String? = nil) {
    self.tests = tests
    if error != nil || tests.allSatisfy({ $0.status == .error }) {
      status = .error
      message = error ?? tests.compactMap(\.message).first ?? "no test ran."
    } else {
      status = tests.allSatisfy { $0.status == .pass } ? .pass : .fail
      message = nil
    }
  }

  /// The tests of one chapter's report, each name after `prefix`.
  static func tests(of report: ChapterReport, prefix: String = "") -> [Test] {
    report.tests.map { test in
      switch test.outcome {
      case .passed, .failedAsExpected:
        Test(name: prefix + test.name, status: .pass, message: nil, output: nil)
      case .failed:
        Test(
          name: prefix + test.name, status: .fail,
          message: test.messages.joined(separator: "\n\n"), output: nil)
      case .didNotFinish:
        Test(name: prefix + test.name, status: .error, message: report.problem, output: nil)
      }
    }
  }

  enum CodingKeys: String, CodingKey {
    case version, status, message, tests
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(2, forKey: .version)
    try container.encode(status, forKey: .status)
    try container.encode(message, forKey: .message)
    try container.encode(tests, forKey: .tests)
  }
}
