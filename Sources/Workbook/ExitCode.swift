/// What `workbook`'s exit status tells a script, CI or a grader: the one table of them, which
/// `--help` and the README print.
///
/// A grader that wraps `check --json` as an Exercism test runner reads the verdict from
/// `results.json` and exits 0 itself whenever the status is below ``cannotRun``: the spec asks a
/// runner to exit 0 whenever it ran, whatever the tests said.
enum ExitCode: Int32, CaseIterable {
  /// Every test passed, or the command did what it was asked.
  case success = 0
  /// The tests ran and some failed; for `verify`, some check of the workbook failed.
  case testsFailed = 1
  /// The command line is wrong: an unknown command or option, a chapter that does not exist, or
  /// a `--junit` path that is refused (a folder, a file that is not a report, a folder that
  /// cannot be written), before anything runs.
  case usage = 2
  /// The chapter does not compile, or its folder or one of its files is missing or empty: no test
  /// could run.
  case doesNotCompile = 3
  /// The tests crashed, or ran past the time limit and were stopped.
  case crashedOrTimedOut = 4
  /// The workbook could not do its work: no toolchain on PATH, not inside the workbook, or a
  /// file it could not read, or a write that failed.
  case cannotRun = 5

  /// The exit status of a check that ended with `verdict`.
  init(_ verdict: ChapterReport.Verdict) {
    switch verdict {
    case .done: self = .success
    case .failing: self = .testsFailed
    case .doesNotCompile: self = .doesNotCompile
    case .crashed, .timedOut: self = .crashedOrTimedOut
    }
  }

  /// One line each, for `--help`.
  static var table: String {
    allCases.map { code in
      let meaning =
        switch code {
        case .success: "every test passed (or the command did what it was asked)"
        case .testsFailed: "some tests failed (verify: some check failed)"
        case .usage: "wrong usage: an unknown command or option, no such chapter, a refused --junit"
        case .doesNotCompile:
          "the chapter does not compile, or its folder or a file is missing or empty"
        case .crashedOrTimedOut: "the tests crashed, or ran past the time limit and were stopped"
        case .cannotRun: "could not run: no toolchain, not in the workbook, a write that failed"
        }
      return "  \(code.rawValue)  \(meaning)"
    }.joined(separator: "\n")
  }
}
