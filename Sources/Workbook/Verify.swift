import Foundation

/// `workbook verify`: the workbook's self-check, and what CI runs.
///
/// It proves that every chapter has a solution with the same files, a lesson and a real
/// difference; that the code is formatted; that every solution passes its whole suite without a
/// compiler warning; and that every starter fails exactly its tests marked `.exposesBug`.
struct Verify {
  let course: Course

  func run(json: Bool, junit: OutputFile? = nil) throws(WorkbookError) -> Int32 {
    // A missing folder is a missing file to the exit status: no test of it could run.
    if let missing = missingChapter() {
      guard json else { throw WorkbookError(missing, exitCode: .doesNotCompile) }
      print(encodeJSON(Results(tests: [], error: missing)))
      return ExitCode.doesNotCompile.rawValue
    }
    var checks = [
      Results.Test(
        "every chapter has a solution, a lesson, hints, a recorded starter and a fix",
        problems: try structure()),
      Results.Test(
        "the code is formatted (swift format lint --strict)",
        problems: try formatting()),
    ]
    let solutions = try suites(.solutions)
    let starters = try suites(.starters)
    let judges = try judgesOfTheStudentsTests()
    if let junit {
      try JUnit.write(
        [
          ("workbook", Results(tests: checks)), ("Solutions", Results(tests: solutions.checks)),
          ("Starters", Results(tests: starters.checks)), ("Judges", Results(tests: judges.checks)),
        ], to: junit)
    }
    checks += solutions.checks + starters.checks + judges.checks
    let results = Results(tests: checks)
    let intact = results.status == .pass
    if json {
      print(encodeJSON(results))
      return (intact ? ExitCode.success : .testsFailed).rawValue
    }

    print()
    for chapter in course.chapters {
      print(
        line(
          for: chapter, solution: solutions.reports.first { $0.chapter == chapter.number },
          starter: starters.reports.first { $0.chapter == chapter.number },
          explored: solutions.explorations[chapter.number],
          caught: starters.explorations[chapter.number]))
    }
    for line in judges.lines { print(line) }
    let explored = solutions.explorations.values
    if !explored.isEmpty {
      print(
        "  every interleaving: \(explored.map(\.schedules).reduce(0, +)) schedules on the "
          + "solutions (\(explored.map(\.pruned).reduce(0, +)) pruned), \(String(format: "%.2f", explored.map(\.seconds).reduce(0, +))) s of the "
          + "test scheduler's time")
    }
    // The course keeps its whole self-check's test time under 2 s: this is the figure to watch.
    // Scripts/verify runs Scripts/check-threads first and hands on the sanitized suites' own.
    let sanitized = ProcessInfo.processInfo.environment["WORKBOOK_SANITIZED_TEST_TIME"].flatMap(
      Double.init)
    let parts =
      [("the solutions' suites", solutions.testTime), ("the starters'", starters.testTime)]
      + (sanitized.map { [("the sanitized solutions'", $0)] } ?? [])
    print(
      "  test time: "
        + parts.map { "\($0.0) \(String(format: "%.2f", $0.1)) s" }.joined(separator: ", ")
        + ", \(String(format: "%.2f", parts.map(\.1).reduce(0, +))) s in all")
    let failed = checks.filter { $0.status != .pass }
    if intact {
      let exposing = starters.reports.flatMap(\.tests).filter { $0.outcome == .failedAsExpected }
      print(
        """

        The workbook is intact: \(course.chapters.count) chapters. The solutions pass all \
        \(solutions.reports.flatMap(\.tests).count) tests; the starters fail their \
        \(exposing.count) bug-exposing tests, as declared, and pass the other \
        \(starters.reports.flatMap(\.tests).count - exposing.count).
        """)
    } else {
      print("\nThe workbook is broken:")
      for check in failed {
        let message = check.message.map { ":\n" + $0 } ?? ""
        print("  - " + (check.name + message).replacingOccurrences(of: "\n", with: "\n    "))
      }
    }
    // The closing line in the plain form CI reads: every test verdict and every other check.
    print("verify: \(checks.count - failed.count) passed, \(failed.count) failed")
    return (intact ? ExitCode.success : .testsFailed).rawValue
  }

  /// The self-check builds every chapter twice, from `Chapters/` and from `Solutions/`, so it needs
  /// them all: the one sentence that says which folder is missing and how to bring it back.
  private func missingChapter() -> String? {
    var isFolder: ObjCBool = false
    guard
      FileManager.default.fileExists(atPath: course.url("Solutions").path, isDirectory: &isFolder),
      isFolder.boolValue
    else {
      return "verify checks the solutions against the starters, and this copy of the course has "
        + "no Solutions/ (a student edition), so there is nothing to verify."
    }
    for chapter in course.chapters {
      if let missing = course.missing(chapter) {
        return "verify needs every chapter, and \(missing.dropLast()): "
          + course.restore(chapter)
      }
      if let missing = course.missing(chapter, in: "Solutions") {
        return "verify needs every chapter's solution, and \(missing.dropLast()): "
          + "`git checkout -- Solutions/\(chapter.folder)` brings it back."
      }
    }
    return nil
  }

  /// What the self-check found for one chapter, on one line: the one place that prints each
  /// chapter's results.
  private func line(
    for chapter: Chapter, solution: ChapterReport?, starter: ChapterReport?,
    explored: Exploration?, caught: Exploration?
  ) -> String {
    let name = chapter.folder.padding(toLength: 24, withPad: " ", startingAt: 0)
    let solved =
      solution.map { "solution passes \($0.passed) of \($0.total)" } ?? "solution not run"
    let exposed =
      starter.map { report in
        let exposing = report.tests.filter { $0.outcome == .failedAsExpected }.count
        return "starter fails \(exposing) as declared, passes \(report.passed - exposing) of "
          + "\(report.total - exposing)"
      } ?? "starter not run"
    let exploration =
      explored.map { explored in
        " · \(explored.schedules) schedules explored (\(explored.pruned) pruned) in "
          + "\(String(format: "%.2f", explored.seconds)) s"
          + (caught.map { ", the starter's bug in schedule \($0.firstSchedules)" } ?? "")
      } ?? ""
    return "  \(name) \(solved) · \(exposed)\(exploration)"
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
      let lesson = "Docs/\(chapter.folder).md"
      if let text = try? String(contentsOf: course.url(lesson), encoding: .utf8) {
        // The lesson comes before the student tries: the hints and the fix come later, apart.
        if text.contains("### Hints") || text.contains("## After green") {
          problems.append(
            "\(lesson) gives hints or the fix away; they belong in \(Hints.path(of: chapter))")
        }
      } else {
        problems.append("Chapters/\(chapter.folder) has no lesson \(lesson)")
      }
      do {
        _ = try Hints(course: course).parts(for: chapter)
      } catch {
        problems.append(error.message)
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

  private func formatting() throws(WorkbookError) -> [String] {
    let progress = ProgressLine("Checking the formatting (swift format lint)")
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

  /// What one variant's suites gave: the reports, and a check per test and per chapter.
  private struct Suites {
    var reports: [ChapterReport] = []
    var checks: [Results.Test] = []
    /// What each chapter's exploration of every interleaving ran, by chapter number.
    var explorations: [String: Exploration] = [:]
    /// The seconds the tests took, as Swift Testing measured them; the build is not in it.
    var testTime = 0.0
  }

  /// How far one chapter's exploration went: every schedule within its bounds on a solution, up
  /// to the first that breaks the promise on a starter.
  private struct Exploration {
    let schedules: Int
    let seconds: Double
    /// Of the schedules, how many were cut short because they could only repeat another.
    let pruned: Int
    /// How many schedules the chapter's first exploration ran: on a starter, the schedule in which
    /// it caught the bug.
    let firstSchedules: Int
  }

  /// Reads the lines the explorations wrote: test module, schedules, seconds, callers, pruned.
  /// A chapter's module is `Chapter02Tests`; the table is keyed by its number, `02`.
  private func explorations(in log: URL) -> [String: Exploration] {
    let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    var found: [String: Exploration] = [:]
    for line in text.split(separator: "\n") {
      let fields = line.split(separator: "\t")
      guard fields.count >= 3, let schedules = Int(fields[1]), let seconds = Double(fields[2])
      else { continue }
      let pruned = fields.count > 4 ? Int(fields[4]) ?? 0 : 0
      let chapter = String(fields[0].drop { !$0.isNumber }.prefix { $0.isNumber })
      // A chapter may explore more than once, with other calls and bounds: count them together.
      let before = found[chapter]
      found[chapter] = Exploration(
        schedules: schedules + (before?.schedules ?? 0), seconds: seconds + (before?.seconds ?? 0),
        pruned: pruned + (before?.pruned ?? 0), firstSchedules: before?.firstSchedules ?? schedules)
    }
    return found
  }

  private func suites(_ variant: Variant) throws(WorkbookError) -> Suites {
    var runner = SuiteRunner(course: course, variant: variant)
    runner.warningsAreErrors = true
    let log = FileManager.default.temporaryDirectory
      .appendingPathComponent("workbook-\(getpid())-\(variant.rawValue)-explorations.tsv")
    runner.explorationLog = log
    defer { try? FileManager.default.removeItem(at: log) }
    let folder = variant == .solutions ? "Solutions" : "Chapters"
    let progress = ProgressLine(
      "Building \(folder)/ (warnings are errors) and running every suite")
    runner.progress = progress
    var suites = Suites()
    switch try runner.run([]) {
    case .doesNotCompile(let errors):
      progress.done("the build failed")
      suites.checks = [
        Results.Test(
          name: "\(folder)/ builds without warnings", status: .error, message: errors, output: nil)
      ]
      return suites
    case .ran(let reports, let testTime, let buildTime):
      suites.reports = reports
      suites.explorations = explorations(in: log)
      suites.testTime = testTime
      progress.say(
        "built in \(String(format: "%.1f", buildTime)) s, ran "
          + "\(reports.map(\.total).reduce(0, +)) tests in \(String(format: "%.3f", testTime)) s")
    }
    for report in suites.reports {
      let label = "\(variant == .solutions ? "solution" : "starter") \(report.chapter)"
      suites.checks += Results.tests(of: report, prefix: "\(label) · ")
      if report.total == 0 {
        suites.checks.append(
          Results.Test(
            name: "\(label) · runs its tests", status: .error,
            message: report.problem ?? "chapter \(report.chapter) has no tests", output: nil))
      }
      // Only a run that ended can say that no test exposed the bug; after a crash, the tests
      // that did not run already say so.
      // In Part III the starter's test is the student's to write: its judge checks it instead.
      let judged = course.chapters.first { $0.number == report.chapter }.map {
        Judge.judges($0, in: course)
      }
      if variant == .starters, judged != true, report.total > 0,
        report.verdict == .failing || report.verdict == .done,
        !report.tests.contains(where: { $0.outcome == .failedAsExpected })
      {
        suites.checks.append(
          Results.Test(
            name: "\(label) · fails a test marked .exposesBug", status: .fail,
            message: "the starter fails no test; it exposes no bug", output: nil))
      }
    }
    return suites
  }
}

extension Verify {
  /// What the judges of Part III found: a check for each promise, and a line per chapter.
  struct Judges {
    var checks: [Results.Test] = []
    var lines: [String] = []
  }

  /// For every chapter whose test the student writes, in one build: the workbook's own test (the
  /// solution's) is judged good; the starter's unfinished test is told it asserts nothing; and
  /// each test kept as `Tests/Judges/<chapter>/test-catches-only-the-starter.swift` is told which
  /// wrong fix it misses, in words.
  func judgesOfTheStudentsTests() throws(WorkbookError) -> Judges {
    var judges = Judges()
    // Every chapter's copies are built in one build, and run in one test run.
    var trial = Judge.Trial()
    var kept: [(chapter: Chapter, versions: [Judge.Version], tests: [Judge.TestFile])] = []
    for chapter in course.chapters where Judge.judges(chapter, in: course) {
      let judge = Judge(course: course, chapter: chapter)
      let testFile = try judge.testFile()
      let reference = try? String(
        contentsOf: course.url("Solutions/\(chapter.folder)/\(testFile)"), encoding: .utf8)
      let unfinished = String(
        decoding: try Starters(course).text(of: testFile, in: chapter), as: UTF8.self)
      let partial = course.url("\(Judge.folder(of: chapter))/test-catches-only-the-starter.swift")
      let onlyTheStarter = try? String(contentsOf: partial, encoding: .utf8)
      let tests = [
        Judge.TestFile(name: "reference", text: reference ?? ""),
        Judge.TestFile(name: "unfinished", text: unfinished),
        Judge.TestFile(name: "onlyTheStarter", text: onlyTheStarter ?? ""),
      ]
      let versions = try judge.versions(includingYours: false)
      try judge.prepare(tests, on: versions, into: &trial)
      kept.append((chapter, versions, tests))
    }
    guard !kept.isEmpty else { return judges }
    let progress = ProgressLine(
      "Judging the kept tests of \(kept.count) chapters on every version of their actors")
    let found: [String: [String: ChapterReport]]
    switch try Judge.run(trial, course: course, focus: nil, progress: progress) {
    case .doesNotCompile(let errors):
      progress.done("the build failed")
      judges.checks.append(
        Results.Test(
          name: "the judges' tests and versions build", status: .error, message: errors,
          output: nil))
      return judges
    case .ran(let reports, let testTime, let buildTime):
      progress.say(
        "built in \(String(format: "%.1f", buildTime)) s, ran \(trial.copies.count) copies in "
          + "\(String(format: "%.3f", testTime)) s")
      found = reports
    }
    for (chapter, versions, tests) in kept {
      let label = "judge \(chapter.number)"
      let testFile = try Judge(course: course, chapter: chapter).testFile()
      let reference = tests[0].text.isEmpty ? nil : tests[0].text
      let unfinished = tests[1].text
      let onlyTheStarter = tests[2].text.isEmpty ? nil : tests[2].text
      func judged(_ name: String, _ text: String) -> Judgement {
        Judgement(
          versions: versions, reports: found["\(chapter.number)/\(name)"] ?? [:],
          holdsNoExpectation: Judge.holdsNoExpectation(text),
          advice: Judge.advice(of: chapter, in: course))
      }
      let good = judged("reference", reference ?? "")
      var problems: [String] = []
      if reference == nil {
        problems.append("Solutions/\(chapter.folder)/\(testFile) is missing")
      }
      if !good.isGood {
        problems += good.verdicts(chapter: chapter).filter { $0.outcome != .passed }
          .map { "\($0.name): \($0.messages.joined(separator: " "))" }
      }
      judges.checks.append(
        Results.Test("\(label) · the workbook's own test is judged good", problems: problems))
      let empty = judged("unfinished", unfinished).verdicts(chapter: chapter)
      judges.checks.append(
        Results.Test(
          "\(label) · the starter's unfinished test is told it asserts nothing",
          problems: empty[0].messages.contains { $0.contains("asserts nothing") }
            ? [] : ["the judge said: \(empty[0].messages)"]))
      let partial = judged("onlyTheStarter", onlyTheStarter ?? "")
      let said = partial.verdicts(chapter: chapter)[1].messages.joined()
      let told =
        onlyTheStarter != nil && partial.failsOnTheStarter && partial.rejected.isEmpty
        && partial.missed.first.map { said.contains($0.about) } == true
      judges.checks.append(
        Results.Test(
          "\(label) · a test that catches only the starter is told which wrong fix it misses",
          problems: told
            ? []
            : [
              onlyTheStarter == nil
                ? "\(Judge.folder(of: chapter))/test-catches-only-the-starter.swift is missing"
                : "the judge said: \(said)"
            ]))
      judges.lines.append(
        "  \(chapter.folder.padding(toLength: 24, withPad: " ", startingAt: 0)) judge: the "
          + "workbook's test catches \(good.caught.count) of \(good.wrong.count) wrong fixes, "
          + "passes \(good.right.count - good.rejected.count) of \(good.right.count) right designs "
          + "· the test that catches only the starter misses \(partial.missed.count)")
    }
    return judges
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
