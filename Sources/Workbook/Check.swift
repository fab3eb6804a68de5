import Foundation

/// `workbook check N`: build the student's chapter, run its suite, and say what it found.
struct Check {
  let course: Course

  func run(_ chapter: Chapter, json: Bool) throws(WorkbookError) -> Int32 {
    let report = try report(for: chapter, quiet: json)
    var progress = Progress.load(course)
    progress.checks[chapter.number] = Progress.Check(
      sources: fingerprint(of: chapter, in: course), verdict: report.verdict,
      passed: report.passed, total: report.total)
    progress.save(course)
    if json {
      print(encodeJSON(report))
    } else {
      print(render(report))
    }
    return report.verdict == .done ? 0 : 1
  }

  /// Builds and tests `chapter` against the student's code.
  func report(for chapter: Chapter, quiet: Bool = false) throws(WorkbookError) -> ChapterReport {
    _ = try course.sources(of: chapter)
    let runner = SuiteRunner(course: course, variant: .student)
    let progress = ProgressLine("Building and testing chapter \(chapter.number)", quiet: quiet)
    switch try runner.run([chapter], focus: chapter) {
    case .doesNotCompile(let errors):
      progress.done("the build failed")
      return ChapterReport(
        chapter: chapter.number, title: chapter.title, verdict: .doesNotCompile, passed: 0,
        total: 0, tests: [], problem: errors)
    case .ran(let reports, _):
      progress.done("ran \(reports[0].total) tests")
      return reports[0]
    }
  }

  func render(_ report: ChapterReport) -> String {
    let chapter = course.chapters.first { $0.number == report.chapter }
    var lines = [
      "", "Chapter \(report.chapter) · \(report.title.replacingOccurrences(of: "`", with: ""))", "",
    ]
    switch report.verdict {
    case .doesNotCompile:
      lines.append("Your code does not compile. The compiler says:\n")
      lines.append(report.problem ?? "")
    case .crashed:
      lines.append("The tests crashed while running your code:")
      lines.append("  " + (report.problem ?? ""))
      lines.append(
        "A `fatalError`, a force unwrap of `nil` or an index out of range stops every test.\n")
      fallthrough
    case .failing, .done:
      for test in report.tests {
        let unfinished = test.outcome == .didNotFinish ? " (did not finish)" : ""
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
    } else if let chapter {
      lines.append(
        "Fix Chapters/\(chapter.folder)/ and run `swift run workbook check \(report.chapter)` again;"
          + " `swift run workbook hint \(report.chapter)` gives a hint.")
    }
    return lines.joined(separator: "\n")
  }

  private func symbol(_ outcome: TestVerdict.Outcome) -> String {
    switch outcome {
    case .passed, .failedAsExpected: "✔"
    case .failed: "✘"
    case .didNotFinish: "?"
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
