import Foundation

/// `workbook check N`: build the student's chapter, run its suite, and say what it found.
struct Check {
  let course: Course

  /// Checks `chapter` and prints the verdict; `watching` when `watch` runs it after a save.
  func run(
    _ chapter: Chapter, json: Bool, junit: OutputFile? = nil, watching: Bool = false
  ) throws(WorkbookError) -> Int32 {
    // Taken before the build, so that a save during the build is never counted as checked.
    let sources = fingerprint(of: chapter, in: course)
    let report = try report(for: chapter)
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
  /// unfinished code cannot stop it. A chapter that no build could get past (its folder missing,
  /// a file that is not text, nothing but empty files) is reported without a build.
  func report(for chapter: Chapter) throws(WorkbookError) -> ChapterReport {
    if let broken = BrokenCode.beforeBuild(of: chapter, in: course) {
      return ChapterReport(
        chapter: chapter.number, title: chapter.title, verdict: .doesNotCompile, passed: 0,
        total: 0, tests: [], problem: broken.sentence)
    }
    if Judge.judges(chapter, in: course) {
      return try judgedReport(for: chapter)
    }
    var runner = SuiteRunner(course: course, variant: .student)
    let progress = ProgressLine("Building and testing chapter \(chapter.number)")
    runner.progress = progress
    switch try runner.run([chapter], focus: chapter) {
    case .doesNotCompile(let errors):
      progress.done("the build failed")
      return ChapterReport(
        chapter: chapter.number, title: chapter.title, verdict: .doesNotCompile, passed: 0,
        total: 0, tests: [], problem: errors)
    case .ran(let reports, let testTime, let buildTime):
      let report = reports[0]
      let built = "built in \(String(format: "%.1f", buildTime)) s"
      let tests = String(format: "%.2f", testTime)
      switch report.verdict {
      case .crashed: progress.say("\(built); the tests crashed after \(tests) s")
      case .timedOut: progress.say("\(built); the tests were stopped after \(tests) s")
      default: progress.say("\(built), ran \(report.total) tests in \(tests) s")
      }
      return report
    }
  }

  /// A chapter whose test the student writes: the judge's verdict on the test, and then what the
  /// test says of the student's actor (see ``Judge``).
  private func judgedReport(for chapter: Chapter) throws(WorkbookError) -> ChapterReport {
    let judge = Judge(course: course, chapter: chapter)
    let stopped = { (verdict: ChapterReport.Verdict, problem: String?) in
      ChapterReport(
        chapter: chapter.number, title: chapter.title, verdict: verdict, passed: 0, total: 0,
        tests: [], problem: problem)
    }
    // A file of the starter's that is missing or empty is reported without a build; the verdict
    // finds which one, and says so (see ``BrokenCode``).
    for file in [try judge.testFile(), try judge.actorFile()] {
      let data = try? Data(contentsOf: course.url("Chapters/\(chapter.folder)/\(file)"))
      if data.map({ String(decoding: $0, as: UTF8.self).allSatisfy(\.isWhitespace) }) ?? true {
        return stopped(.doesNotCompile, nil)
      }
    }
    let test = "Chapters/\(chapter.folder)/\(try judge.testFile())"
    let text = String(decoding: (try? Data(contentsOf: course.url(test))) ?? Data(), as: UTF8.self)
    let versions = try judge.versions(includingYours: true)
    let progress = ProgressLine(
      "Judging your test of chapter \(chapter.number) on \(versions.count) versions of the actor")
    var tests = [Judge.TestFile(name: "yours", text: text)]
    // The workbook's own test, where `Solutions/` is there, runs on the student's actor alone.
    let theirs = "Solutions/\(chapter.folder)/\(try judge.testFile())"
    if let workbook = try? String(contentsOf: course.url(theirs), encoding: .utf8) {
      tests.append(Judge.TestFile(name: "workbook", text: workbook, origin: theirs, only: [.yours]))
    }
    switch try judge.run(tests, on: versions, progress: progress) {
    case .doesNotCompile(let errors):
      progress.done("the build failed")
      return stopped(.doesNotCompile, errors)
    case .ran(let found, let testTime, let buildTime):
      let reports = found["yours"] ?? [:]
      let built = "built in \(String(format: "%.1f", buildTime)) s"
      // A crash stops the run for every version: the one whose test was running is the one it
      // crashed on.
      let halted = versions.filter { [.crashed, .timedOut].contains(reports[$0.name]?.verdict) }
      let running = halted.first { version in
        reports[version.name]?.tests.contains { $0.outcome == .didNotFinish } ?? false
      }
      if let version = running ?? halted.first, let report = reports[version.name] {
        progress.say("\(built); the tests stopped after \(String(format: "%.2f", testTime)) s")
        let test = report.tests.first { $0.outcome == .didNotFinish }.map { "“\($0.name)” " }
        let on =
          version.kind == .yours
          ? "your actor"
          : version.kind == .starter
            ? "the starter" : "one of the workbook's versions of the actor"
        guard report.verdict == .crashed else {
          let seconds = SuiteRunner.timeLimitPerChapter.components.seconds
          return stopped(
            report.verdict,
            "Your test \(test ?? "")was still running on \(on) after \(seconds) seconds, so the "
              + "workbook stopped it there: something the test waits for never happens on \(on), "
              + "or a loop never ends.")
        }
        // The runtime names the copy of a test by its module, `Judge14_starterTests/…`: name
        // the file the student wrote, or the workbook's.
        let named = (report.problem ?? "")
          .replacingOccurrences(
            of: #"Judge[0-9]+_workbook_[A-Za-z0-9_]+Tests/"#,
            with: "Solutions/\(chapter.folder)/", options: .regularExpression
          )
          .replacingOccurrences(
            of: #"Judge[0-9]+_[A-Za-z0-9_]+Tests/"#, with: "Chapters/\(chapter.folder)/",
            options: .regularExpression)
        return stopped(report.verdict, "Your test \(test ?? "")crashed on \(on): " + named)
      }
      let judgement = Judgement(
        versions: versions, reports: reports,
        holdsNoExpectation: Judge.holdsNoExpectation(text),
        advice: Judge.advice(of: chapter, in: course), workbook: found["workbook"]?["yours"])
      let tests = judgement.verdicts(chapter: chapter)
      let passed = tests.filter { $0.outcome == .passed }.count
      progress.say(
        "\(built), ran your test on \(versions.count) versions in \(String(format: "%.2f", testTime)) s"
      )
      return ChapterReport(
        chapter: chapter.number, title: chapter.title,
        verdict: passed == tests.count ? .done : .failing, passed: passed, total: tests.count,
        tests: tests, problem: nil)
    }
  }

  /// The report as Exercism's `results.json` has it, for graders.
  func results(of report: ChapterReport) -> Results {
    guard let broken = BrokenCode(report, in: course) else {
      return Results(tests: Results.tests(of: report))
    }
    return Results(tests: [], error: broken.explaining(report.problem))
  }

  func render(_ report: ChapterReport, watching: Bool = false) -> String {
    let chapter = course.chapters.first { $0.number == report.chapter }
    let width = Terminal.width
    let broken = BrokenCode(report, in: course)
    let heading =
      "Chapter \(report.chapter) · \(report.title.replacingOccurrences(of: "`", with: ""))"
    var lines = ["", Terminal.wrap(heading, width: width), ""]
    switch report.verdict {
    case .doesNotCompile:
      // The compiler's own lines keep their shape: their carets point at columns. The first
      // errors are the ones to read: later ones are most often what the first one caused.
      let errors = report.problem.map { Diagnostics.first(Self.errorsShown, of: $0) }
      lines.append(broken.map { Terminal.wrap($0.explaining(errors), width: width) } ?? "")
    case .crashed, .timedOut, .failing, .done:
      if report.verdict == .crashed {
        lines.append("The tests crashed while running your code:")
        lines.append(
          Terminal.wrap("  " + Diagnostics.visible(report.problem ?? ""), width: width))
        lines.append(
          Terminal.wrap(
            "A `fatalError`, a failed `precondition`, a force unwrap of `nil` or an index out of "
              + "range stops every test.\n",
            width: width))
      } else if report.verdict == .timedOut {
        lines.append(Terminal.wrap((report.problem ?? "") + "\n", width: width))
      }
      for test in report.tests {
        let unfinished =
          test.outcome == .didNotFinish
          ? " (did not finish)" : test.outcome == .notRun ? " (did not run)" : ""
        lines.append(
          Terminal.wrap("  \(symbol(test.outcome)) \(test.name)\(unfinished)", width: width))
        for message in test.messages {
          lines.append(
            Terminal.wrap(
              message.split(separator: "\n", omittingEmptySubsequences: false)
                .map { "      \($0)" }.joined(separator: "\n"), width: width))
        }
        if test.outcome == .failed,
          let printed = test.output.flatMap({
            Diagnostics.firstLines(Self.printedLinesShown, of: $0)
          })
        {
          // An exploration runs the code once per schedule: its first lines are the first
          // schedule's, not the failing one's.
          let explored = test.messages.contains { $0.contains("Replay exactly this run:") }
          lines.append(
            Terminal.wrap(
              explored
                ? "      Your code printed, from the exploration's first schedule on (the "
                  + "replay line above runs the failing schedule alone):"
                : "      Your code printed:", width: width))
          lines.append(
            Terminal.wrap(printed.map { "        \($0)" }.joined(separator: "\n"), width: width))
        }
      }
      // A run that stopped before any test reported has no count to give: the sentence above
      // says why.
      if report.total > 0 {
        lines.append("")
        lines.append("\(report.passed) of \(report.total) tests pass.")
      }
    }
    if report.verdict == .done {
      lines.append(
        Terminal.wrap(
          "Chapter \(report.chapter) is done. Compare with the workbook's fix: "
            + "swift run workbook diff \(report.chapter)", width: width))
      if let chapter, callsFromOtherThreads(chapter) {
        lines.append(
          Terminal.wrap(
            "Its tests from other threads fail only when a race happens to bite; for the Thread "
              + "Sanitizer's verdict, run Scripts/check-threads --mine \(report.chapter) "
              + "(a few minutes the first time).", width: width))
      }
    } else if let chapter, broken?.isYours ?? true {
      let again =
        watching
        ? "save it and the tests run again"
        : "run `swift run workbook check \(report.chapter)` again"
      lines.append(
        Terminal.wrap(
          "Fix Chapters/\(chapter.folder)/ and \(again);"
            + " `swift run workbook hint \(report.chapter)` gives a hint.", width: width))
    }
    return lines.joined(separator: "\n")
  }

  /// How many of the compiler's errors the terminal shows; `--json` and `--junit` keep them all.
  static let errorsShown = 8
  /// How many lines of what a test's code printed the terminal shows: an exploration runs the
  /// code thousands of times, and so prints a line as often.
  static let printedLinesShown = 12

  /// Whether `chapter`'s tests call its actor from real threads, which only a build with the
  /// Thread Sanitizer judges for sure (see `Scripts/check-threads`).
  private func callsFromOtherThreads(_ chapter: Chapter) -> Bool {
    let tests = course.root.appendingPathComponent("Tests/\(chapter.testTarget)")
    let files = (try? FileManager.default.contentsOfDirectory(atPath: tests.path)) ?? []
    return files.contains { file in
      let text = try? String(contentsOf: tests.appendingPathComponent(file), encoding: .utf8)
      return text?.contains("OtherThreads") ?? false
    }
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

/// Whose code the compiler's errors are in, when a chapter does not compile, or what is missing.
enum BrokenCode: Equatable {
  /// The student's own files in `Chapters/`.
  case chapter(folder: String)
  /// The chapter's tests, which break when the actor's public API changes.
  case tests
  /// The workbook's shared code, which a student has no reason to touch.
  case workbook
  /// The chapter's folder is missing or holds no Swift file: the sentence that says so.
  case missingFolder(String)
  /// A starter file of the chapter is missing or empty, so the tests have no actor to test.
  case missingFile(path: String, empty: Bool, restore: String)
  /// A file of the chapter is not text at all (not UTF-8), such as one overwritten by a binary.
  case notText(path: String, restore: String)

  init?(_ report: ChapterReport, in course: Course) {
    guard report.verdict == .doesNotCompile else { return nil }
    let errors = report.problem ?? ""
    guard let chapter = course.chapters.first(where: { $0.number == report.chapter }) else {
      self = .workbook
      return
    }
    if let early = Self.beforeBuild(of: chapter, in: course) {
      // No build ran, and the report's problem is this very sentence: it names the chapter's
      // file, which must not make it read as the compiler's error in that file.
      self = early
    } else if errors.contains("Chapters/\(chapter.folder)/") {
      self = .chapter(folder: chapter.folder)
    } else if let file = Self.absentStarterFile(of: chapter, in: course) {
      self = .missingFile(path: file.path, empty: file.empty, restore: course.restore(chapter))
    } else if errors.contains("Tests/\(chapter.testTarget)/") {
      self = .tests
    } else {
      self = .workbook
    }
  }

  /// What is wrong with the student's chapter that no build could get past: its folder is
  /// missing, a file is not text (the compiler would print every byte it cannot read, a
  /// screenful of noise), or every file is empty. `nil` when there is code to build.
  static func beforeBuild(of chapter: Chapter, in course: Course) -> BrokenCode? {
    if let missing = course.missing(chapter) {
      return .missingFolder("\(missing) \(course.restore(chapter))")
    }
    if let garbled = fileThatIsNotText(in: chapter, course: course) {
      return .notText(path: garbled, restore: course.restore(chapter))
    }
    let sources = (try? course.sources(of: chapter)) ?? []
    let blank = sources.allSatisfy { file in
      let data = (try? Data(contentsOf: course.url("Chapters/\(chapter.folder)/\(file)"))) ?? Data()
      return String(decoding: data, as: UTF8.self).allSatisfy(\.isWhitespace)
    }
    if blank, let file = absentStarterFile(of: chapter, in: course), file.empty {
      return .missingFile(path: file.path, empty: true, restore: course.restore(chapter))
    }
    return nil
  }

  /// A starter file that is missing from the student's folder, or holds nothing but white space.
  static func absentStarterFile(
    of chapter: Chapter, in course: Course
  ) -> (path: String, empty: Bool)? {
    for file in (try? Starters(course).files(of: chapter)) ?? [] {
      let path = "Chapters/\(chapter.folder)/\(file)"
      guard let data = try? Data(contentsOf: course.url(path)) else { return (path, false) }
      if String(decoding: data, as: UTF8.self).allSatisfy(\.isWhitespace) { return (path, true) }
    }
    return nil
  }

  /// A Swift file of the student's chapter that is not UTF-8 text.
  private static func fileThatIsNotText(in chapter: Chapter, course: Course) -> String? {
    for file in (try? course.sources(of: chapter)) ?? [] {
      let path = "Chapters/\(chapter.folder)/\(file)"
      if let data = try? Data(contentsOf: course.url(path)),
        String(data: data, encoding: .utf8) == nil
      {
        return path
      }
    }
    return nil
  }

  /// Whether the student's own files are what to fix, so that "fix Chapters/… and run again" is
  /// the right advice.
  var isYours: Bool {
    switch self {
    case .chapter, .tests: true
    case .workbook, .missingFolder, .missingFile, .notText: false
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
    case .missingFolder(let sentence):
      sentence
    case .missingFile(let path, let empty, let restore):
      "\(path) is \(empty ? "empty" : "missing"), so "
        + (path.hasSuffix("Tests.swift")
          ? "there is no test of yours to judge. " : "the chapter's tests have no actor to test. ")
        + restore
    case .notText(let path, let restore):
      "\(path) is not text (it is not UTF-8), so the compiler cannot read it. " + restore
    }
  }

  /// The sentence, and after it the compiler's errors where they say more than the sentence.
  func explaining(_ errors: String?) -> String {
    switch self {
    case .missingFolder, .missingFile, .notText: sentence
    default: "\(sentence)\n\n\(errors ?? "")"
    }
  }
}
