import Foundation

/// `workbook check N`: build the student's chapter, run its suite, and say what it found.
struct Check {
  let course: Course

  /// Checks `chapter` and prints the verdict; `watching` when `watch` runs it after a save.
  func run(
    _ chapter: Chapter, json: Bool, junit: URL? = nil, watching: Bool = false
  ) throws(WorkbookError) -> Int32 {
    // Taken before the build, so that a save during the build is never counted as checked.
    let sources = fingerprint(of: chapter, in: course)
    let report = try report(for: chapter, quiet: json)
    var progress = Progress.load(course)
    progress.checks[chapter.number] = Progress.Check(
      sources: sources, verdict: report.verdict, passed: report.passed, total: report.total)
    progress.save(course)
    if let junit {
      try JUnit.write([("Chapter \(chapter.number)", results(of: report))], to: junit)
    }
    if json {
      printNow(encodeJSON(results(of: report)))
    } else {
      printNow(render(report, watching: watching))
    }
    return ExitCode(report.verdict).rawValue
  }

  /// Builds and tests `chapter` against the student's code, and nothing else: another chapter's
  /// unfinished code cannot stop it.
  func report(for chapter: Chapter, quiet: Bool = false) throws(WorkbookError) -> ChapterReport {
    _ = try course.sources(of: chapter)
    let runner = SuiteRunner(course: course, variant: .student)
    let progress = ProgressLine("Building and testing chapter \(chapter.number)", quiet: quiet)
    let report: ChapterReport
    switch try runner.run([chapter], focus: chapter) {
    case .doesNotCompile(let errors):
      progress.done("the build failed")
      report = ChapterReport(
        chapter: chapter.number, title: chapter.title, verdict: .doesNotCompile, passed: 0,
        total: 0, tests: [], problem: errors)
    case .ran(let reports, _):
      report = reports[0]
      switch report.verdict {
      case .crashed: progress.done("the tests crashed")
      case .timedOut: progress.done("the tests were stopped")
      default: progress.done("ran \(report.total) tests")
      }
    }
    return report
  }

  /// The report as Exercism's `results.json` has it, for graders.
  func results(of report: ChapterReport) -> Results {
    guard let broken = BrokenCode(report, in: course) else {
      return Results(tests: Results.tests(of: report))
    }
    return Results(tests: [], error: "\(broken.sentence)\n\n\(report.problem ?? "")")
  }

  func render(_ report: ChapterReport, watching: Bool = false) -> String {
    let chapter = course.chapters.first { $0.number == report.chapter }
    var lines = [
      "", "Chapter \(report.chapter) · \(report.title.replacingOccurrences(of: "`", with: ""))", "",
    ]
    switch report.verdict {
    case .doesNotCompile:
      lines.append((BrokenCode(report, in: course)?.sentence ?? "") + "\n")
      lines.append(report.problem ?? "")
    case .crashed, .timedOut, .failing, .done:
      if report.verdict == .crashed {
        lines.append("The tests crashed while running your code:")
        lines.append("  " + (report.problem ?? ""))
        lines.append(
          "A `fatalError`, a force unwrap of `nil` or an index out of range stops every test.\n")
      } else if report.verdict == .timedOut {
        lines.append((report.problem ?? "") + "\n")
      }
      for test in report.tests {
        let unfinished =
          test.outcome == .didNotFinish
          ? " (did not finish)" : test.outcome == .notRun ? " (did not run)" : ""
        lines.append("  \(symbol(test.outcome)) \(test.name)\(unfinished)")
        for message in test.messages {
          lines.append(
            message.split(separator: "\n", omittingEmptySubsequences: false)
              .map { "      \($0)" }.joined(separator: "\n"))
        }
      }
      lines.append("")
      lines.append("\(report.passed) of \(report.total) tests pass.")
    }
    if report.verdict == .done {
      lines.append(
        "Chapter \(report.chapter) is done. Compare with the workbook's fix: swift run workbook diff \(report.chapter)"
      )
    } else if let chapter, BrokenCode(report, in: course) != .workbook {
      let again =
        watching
        ? "save it and the tests run again"
        : "run `swift run workbook check \(report.chapter)` again"
      lines.append(
        "Fix Chapters/\(chapter.folder)/ and \(again);"
          + " `swift run workbook hint \(report.chapter)` gives a hint.")
    }
    return lines.joined(separator: "\n")
  }

  private func symbol(_ outcome: TestVerdict.Outcome) -> String {
    switch outcome {
    case .passed, .failedAsExpected: "✔"
    case .failed: "✘"
    case .didNotFinish, .notRun: "?"
    }
  }
}

/// A value as pretty JSON with sorted keys, for graders' scripts.
func encodeJSON(_ value: some Encodable) -> String {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
  let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
  return String(decoding: data, as: UTF8.self)
}

/// Whose code the compiler's errors are in, when a chapter does not compile.
enum BrokenCode: Equatable {
  /// The student's own files in `Chapters/`.
  case chapter(folder: String)
  /// The chapter's tests, which break when the actor's public API changes.
  case tests
  /// The workbook's shared code, which a student has no reason to touch.
  case workbook

  init?(_ report: ChapterReport, in course: Course) {
    guard report.verdict == .doesNotCompile else { return nil }
    let errors = report.problem ?? ""
    let chapter = course.chapters.first { $0.number == report.chapter }
    if let chapter, errors.contains("Chapters/\(chapter.folder)/") {
      self = .chapter(folder: chapter.folder)
    } else if let chapter, errors.contains("Tests/\(chapter.testTarget)/") {
      self = .tests
    } else {
      self = .workbook
    }
  }

  var sentence: String {
    switch self {
    case .chapter(let folder):
      "Your code in Chapters/\(folder)/ does not compile. The compiler says:"
    case .tests:
      "The chapter's tests do not compile against your actor: keep its public API (names, "
        + "parameters, `async` and `throws`) as the starter has it. The compiler says:"
    case .workbook:
      "The workbook's own code does not compile, which is not your chapter's doing; "
        + "`git status` shows what changed outside Chapters/. The compiler says:"
    }
  }
}
