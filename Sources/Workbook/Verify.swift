import Foundation

/// `workbook verify`: the workbook's self-check, and what CI runs.
///
/// It proves that every chapter has a solution with the same files, a lesson and a real
/// difference; that the code is formatted; that every solution passes its whole suite without a
/// compiler warning; and that every starter fails exactly its tests marked `.exposesBug`.
struct Verify {
  let course: Course

  private struct Outcome: Encodable {
    var problems: [String] = []
    var solutions: [ChapterReport] = []
    var starters: [ChapterReport] = []
    /// Whether the workbook is intact: no problem of any kind.
    var passed = false
  }

  func run(json: Bool) throws(WorkbookError) -> Int32 {
    var outcome = Outcome()
    outcome.problems += try structure()
    outcome.problems += try formatting(quiet: json)
    let (solutions, solutionProblems) = try suites(.solutions, quiet: json)
    outcome.solutions = solutions
    outcome.problems += solutionProblems
    let (starters, starterProblems) = try suites(.starters, quiet: json)
    outcome.starters = starters
    outcome.problems += starterProblems
    outcome.passed = outcome.problems.isEmpty

    if json {
      print(encodeJSON(outcome))
      return outcome.passed ? 0 : 1
    }
    let verdicts = (solutions + starters).flatMap(\.tests)
    let failedTests = verdicts.filter { $0.outcome == .failed || $0.outcome == .didNotFinish }
    if outcome.passed {
      let exposing = starters.flatMap(\.tests).filter { $0.outcome == .failedAsExpected }.count
      print(
        """

        The workbook is intact: \(course.chapters.count) chapters. The solutions pass all \
        \(solutions.flatMap(\.tests).count) tests; the starters fail their \(exposing) \
        bug-exposing tests, as declared, and pass the other \
        \(starters.flatMap(\.tests).count - exposing).
        """)
    } else {
      print("\nThe workbook is broken:")
      for problem in outcome.problems {
        print("  - " + problem.replacingOccurrences(of: "\n", with: "\n    "))
      }
    }
    // The closing line in the plain form CI reads: every test verdict and every other problem.
    let passed = verdicts.count - failedTests.count
    print("verify: \(passed) passed, \(outcome.problems.count) failed")
    return outcome.passed ? 0 : 1
  }

  /// Every chapter has its solution, lesson and starter record, and differs from its solution.
  private func structure() throws(WorkbookError) -> [String] {
    var problems: [String] = []
    let manifest = Package.listed(in: course)
    for chapter in course.chapters {
      let mine = (try? course.sources(of: chapter)) ?? []
      guard let solution = try? course.sources(of: chapter, in: "Solutions") else {
        problems.append("Chapters/\(chapter.folder) has no Solutions/\(chapter.folder)")
        continue
      }
      if mine != solution {
        problems.append(
          "Chapters/\(chapter.folder) and Solutions/\(chapter.folder) hold different files")
      } else if mine.allSatisfy({ same(chapter, $0) }) {
        problems.append("Chapters/\(chapter.folder) is identical to its solution: nothing to fix")
      }
      if !FileManager.default.fileExists(atPath: course.url("Docs/\(chapter.folder).md").path) {
        problems.append("Chapters/\(chapter.folder) has no lesson Docs/\(chapter.folder).md")
      } else if (try? Hints(course: course).hints(for: chapter)) == nil {
        problems.append("Docs/\(chapter.folder).md has no `### Hints` section")
      }
      if !manifest.contains(chapter.folder) {
        problems.append("Chapters/\(chapter.folder) is not listed in Package.swift")
      }
    }
    let recorded = ((try? String(contentsOf: course.url(Starters.manifest), encoding: .utf8)) ?? "")
      .split(separator: "\n").filter { !$0.hasPrefix("#") }
    if try recorded != Starters.record(course).split(separator: "\n") {
      problems.append(
        "\(Starters.manifest) does not match the starters in Chapters/; after changing a starter, "
          + "run Scripts/record-starters and commit the result")
    }
    return problems
  }

  private func same(_ chapter: Chapter, _ file: String) -> Bool {
    let mine = try? Data(contentsOf: course.url("Chapters/\(chapter.folder)/\(file)"))
    let theirs = try? Data(contentsOf: course.url("Solutions/\(chapter.folder)/\(file)"))
    return mine == theirs
  }

  private func formatting(quiet: Bool) throws(WorkbookError) -> [String] {
    let progress = ProgressLine("Checking the formatting (swift format lint)", quiet: quiet)
    let result = try Shell.run(
      [
        "swift", "format", "lint", "--strict", "--recursive", "Package.swift", "Sources", "Tests",
        "Chapters", "Solutions",
      ],
      in: course.root)
    progress.done()
    guard result.succeeded else {
      return [
        "the code is not formatted; run: swift format --in-place --recursive Package.swift "
          + "Sources Tests Chapters Solutions\n" + result.output.trimmingCharacters(in: .newlines)
      ]
    }
    return []
  }

  private func suites(
    _ variant: Variant, quiet: Bool
  ) throws(WorkbookError) -> ([ChapterReport], [String]) {
    var runner = SuiteRunner(course: course, variant: variant)
    runner.warningsAreErrors = true
    let folder = variant == .solutions ? "Solutions" : "Chapters"
    let progress = ProgressLine(
      "Building \(folder)/ (warnings are errors) and running every suite", quiet: quiet)
    let reports: [ChapterReport]
    switch try runner.run([]) {
    case .doesNotCompile(let errors):
      progress.done("the build failed")
      return ([], ["\(folder)/ does not build without warnings:\n\(errors)"])
    case .ran(let ran, let testTime):
      reports = ran
      progress.done(
        "ran \(reports.map(\.total).reduce(0, +)) tests"
          + (testTime.map { " (test time \(String(format: "%.3f", $0)) s)" } ?? ""))
    }
    var problems: [String] = []
    for report in reports {
      if report.verdict == .crashed {
        problems.append(
          "chapter \(report.chapter)'s tests crashed on \(folder)/: \(report.problem ?? "")")
      }
      if report.total == 0 {
        problems.append("chapter \(report.chapter) has no tests")
      }
      for test in report.tests where test.outcome == .failed || test.outcome == .didNotFinish {
        let what =
          variant == .solutions ? "the solution fails" : "the starter does not fail as declared:"
        problems.append(
          "chapter \(report.chapter): \(what) \"\(test.name)\""
            + (test.messages.first.map { "\n" + $0 } ?? ""))
      }
      if variant == .starters, !report.tests.contains(where: { $0.outcome == .failedAsExpected }) {
        problems.append("chapter \(report.chapter): the starter fails no test; it exposes no bug")
      }
    }
    return (reports, problems)
  }
}

/// What `Package.swift` says, read as text.
enum Package {
  /// The chapter folders that `Package.swift` names.
  static func listed(in course: Course) -> Set<String> {
    let text = (try? String(contentsOf: course.url("Package.swift"), encoding: .utf8)) ?? ""
    return Set(course.chapters.map(\.folder).filter { text.contains("\"\($0)\"") })
  }
}
