import Foundation

/// The judge of a test the student wrote, in the chapters of Part III.
///
/// A test that judges an actor must itself be judged first: it has to fail on the starter and on
/// every wrong fix the workbook keeps, and pass on the workbook's fix and every other right design
/// it keeps (`Tests/Judges/<chapter>/wrong-*.swift` and `correct-*.swift`, each a whole actor whose
/// first comment says in words what it does). Only a test judged good then judges the student's
/// own actor, and with it the workbook's own test (the solution's), where `Solutions/` is there.
///
/// Building each version on its own would cost a build each. Instead every version is a module of
/// its own under `.build/judge/`, next to a copy of the student's test whose `import` names that
/// module, and one `swift build` builds them all, one test run runs them all, and each module's
/// verdicts are read apart (see `WORKBOOK_JUDGE` in Package.swift). The versions change only with
/// the workbook, so after an edit of the test the build compiles its copies, without debug
/// information, and links once. The student's files are only read, never written.
struct Judge {
  let course: Course
  let chapter: Chapter

  /// What a version of the actor is to the judge.
  enum Kind {
    /// The chapter's starter: the bug a good test catches.
    case starter
    /// A plausible fix that still breaks the chapter's promise: a good test fails on it.
    case wrong
    /// A design that keeps the promise: a good test passes on it.
    case right
    /// The student's own actor, which a test judged good then judges.
    case yours
  }

  /// One version of the actor, with what it does in words.
  struct Version {
    let name: String
    let kind: Kind
    /// What it does, as the verdict says it when the test misses it: the kept file's first
    /// comment, without its "A wrong fix: " or "A right design: ".
    let about: String
    let source: String
    /// Where the compiler's notes may name it, such as `Tests/Judges/…/wrong-….swift`.
    var origin: String?
  }

  /// One test file to judge, under a name that is a Swift identifier.
  struct TestFile {
    let name: String
    let text: String
    /// Where the compiler's errors name it: the student's file, unless it is the workbook's.
    var origin: String?
    /// The kinds of versions it runs on, every kind when `nil`.
    var only: Set<Kind>?
  }

  /// Where the workbook keeps `chapter`'s versions: a chapter has a judge when this folder exists.
  static func folder(of chapter: Chapter) -> String { "Tests/Judges/\(chapter.folder)" }

  /// Whether the student writes `chapter`'s test.
  static func judges(_ chapter: Chapter, in course: Course) -> Bool {
    var isFolder: ObjCBool = false
    return FileManager.default.fileExists(
      atPath: course.url(folder(of: chapter)).path, isDirectory: &isFolder) && isFolder.boolValue
  }

  /// The student's test file, as the starter names it: the one whose name ends in `Tests.swift`.
  func testFile() throws(WorkbookError) -> String {
    let files = try Starters(course).files(of: chapter)
    guard let test = files.first(where: { $0.hasSuffix("Tests.swift") }) else {
      throw WorkbookError("\(Starters.manifest) names no test file for chapter \(chapter.number).")
    }
    return test
  }

  /// The actor's file, as the starter names it.
  func actorFile() throws(WorkbookError) -> String {
    let files = try Starters(course).files(of: chapter)
    guard let actor = files.first(where: { !$0.hasSuffix("Tests.swift") }) else {
      throw WorkbookError("\(Starters.manifest) names no actor for chapter \(chapter.number).")
    }
    return actor
  }

  /// The versions of the actor to try a test on: the starter, from git; the workbook's fix, when
  /// `Solutions/` is there; every kept wrong fix and right design; with `yours`, the student's.
  func versions(includingYours yours: Bool) throws(WorkbookError) -> [Version] {
    let actor = try actorFile()
    let starter = String(decoding: try Starters(course).text(of: actor, in: chapter), as: UTF8.self)
    var versions = [
      Version(
        name: "starter", kind: .starter, about: "the starter", source: starter)
    ]
    if let solution = try? String(
      contentsOf: course.url("Solutions/\(chapter.folder)/\(actor)"), encoding: .utf8)
    {
      versions.append(
        Version(
          name: "solution", kind: .right, about: "the workbook's fix", source: solution,
          origin: "Solutions/\(chapter.folder)/\(actor)"))
    }
    let kept = course.url(Self.folder(of: chapter))
    let files = ((try? FileManager.default.contentsOfDirectory(atPath: kept.path)) ?? []).sorted()
    for file in files where file.hasSuffix(".swift") {
      let kind: Kind
      if file.hasPrefix("wrong-") {
        kind = .wrong
      } else if file.hasPrefix("correct-") {
        kind = .right
      } else {
        continue
      }
      guard let source = try? String(contentsOf: kept.appendingPathComponent(file), encoding: .utf8)
      else { throw WorkbookError("\(Self.folder(of: chapter))/\(file) cannot be read.") }
      versions.append(
        Version(
          name: identifier(String(file.dropLast(".swift".count))), kind: kind,
          about: Self.about(source), source: source,
          origin: "\(Self.folder(of: chapter))/\(file)"))
    }
    if yours {
      let path = "Chapters/\(chapter.folder)/\(actor)"
      guard let mine = try? String(contentsOf: course.url(path), encoding: .utf8) else {
        throw WorkbookError(
          "\(path) is missing, so there is no actor of yours to test. " + course.restore(chapter),
          exitCode: .doesNotCompile)
      }
      versions.append(
        Version(name: "yours", kind: .yours, about: "your actor", source: mine, origin: path))
    }
    return versions
  }

  /// What a run of the judge gave: for every test file, one report per version, by name.
  enum Outcome {
    case doesNotCompile(String)
    case ran([String: [String: ChapterReport]], testTime: Double, buildTime: Double)
  }

  /// The copies of test files against versions of actors, written under `.build/judge/` and ready
  /// to build: of one chapter, or of several, so that the self-check builds them all at once.
  struct Trial {
    /// Each copy: the test file and the version it names, as `NN/test`, and the module it is.
    var copies: [(test: String, version: String, module: Chapter)] = []
    var renamed: [(copy: String, original: String)] = []
  }

  /// Builds every test file against every version in one build, runs them in one test run, and
  /// reads each copy's verdicts apart.
  func run(
    _ tests: [TestFile], on versions: [Version], progress: ProgressLine? = nil
  ) throws(WorkbookError) -> Outcome {
    var trial = Trial()
    try prepare(tests, on: versions, into: &trial)
    switch try Self.run(trial, course: course, focus: chapter, progress: progress) {
    case .doesNotCompile(let errors):
      return .doesNotCompile(errors)
    case .ran(let found, let testTime, let buildTime):
      var mine: [String: [String: ChapterReport]] = [:]
      for (key, reports) in found where key.hasPrefix("\(chapter.number)/") {
        mine[String(key.dropFirst(chapter.number.count + 1))] = reports
      }
      return .ran(mine, testTime: testTime, buildTime: buildTime)
    }
  }

  /// Writes the copies of `tests` against `versions` (those each test runs on) into `trial`.
  func prepare(
    _ tests: [TestFile], on versions: [Version], into trial: inout Trial
  ) throws(WorkbookError) {
    let actor = try actorFile()
    let testName = try testFile()
    for test in tests {
      for version in versions where test.only?.contains(version.kind) ?? true {
        // The student's test, the one `check` judges, names its modules by version alone.
        let module =
          "Judge\(chapter.number)_"
          + (test.name == "yours" ? version.name : "\(test.name)_\(version.name)")
        let folder = ".build/judge/\(module)"
        try write(version.source, to: "\(folder)/actor/\(actor)")
        try write(
          Self.importing(module, in: test.text, insteadOf: chapter),
          to: "\(folder)/tests/\(testName)")
        var judged = chapter
        judged.module = module
        trial.copies.append(("\(chapter.number)/\(test.name)", version.name, judged))
        trial.renamed.append(
          ("\(folder)/tests/\(testName)", test.origin ?? "Chapters/\(chapter.folder)/\(testName)"))
        if let origin = version.origin {
          trial.renamed.append(("\(folder)/actor/\(actor)", origin))
        }
      }
    }
  }

  /// Builds every copy of `trial` in one build and runs them in one test run; the reports are
  /// keyed `NN/test`, then by version.
  static func run(
    _ trial: Trial, course: Course, focus: Chapter?, progress: ProgressLine?
  ) throws(WorkbookError) -> Outcome {
    var runner = SuiteRunner(course: course, variant: .student)
    runner.showsExpressions = true
    runner.progress = progress
    runner.renamedPaths = trial.renamed
    // Every copy's tests run in a fraction of a second, one copy after another: one chapter's time
    // limit for all its copies stops a test that hangs on the first version it hangs on, in 20
    // seconds rather than 20 for every copy.
    let chapters = Set(trial.copies.map { $0.test.prefix { $0 != "/" } }).count
    runner.timeLimit = SuiteRunner.timeLimitPerChapter * max(chapters, 1)
    switch try runner.run(trial.copies.map(\.module), focus: focus) {
    case .doesNotCompile(let errors):
      return .doesNotCompile(errors)
    case .ran(let reports, let testTime, let buildTime):
      var found: [String: [String: ChapterReport]] = [:]
      for (copy, report) in zip(trial.copies, reports) {
        found[copy.test, default: [:]][copy.version] = report
      }
      return .ran(found, testTime: testTime, buildTime: buildTime)
    }
  }

  /// Writes `text` to `path` under the workbook, unless the file already holds it: an unchanged
  /// file keeps its date, so the build does not compile it again.
  private func write(_ text: String, to path: String) throws(WorkbookError) {
    let url = course.url(path)
    if let old = try? String(contentsOf: url, encoding: .utf8), old == text { return }
    do {
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: url, options: .atomic)
    } catch {
      throw WorkbookError("could not write \(path): \(error.localizedDescription)")
    }
  }

  /// `text` with its import of the chapter's module made an import of `module`, line for line, so
  /// that the compiler's line numbers stay the student's.
  static func importing(_ module: String, in text: String, insteadOf chapter: Chapter) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      let words = line.split(separator: " ")
      guard words.last == Substring(chapter.target), words.dropLast().last == "import" else {
        return String(line)
      }
      return "@testable import \(module)"
    }.joined(separator: "\n")
  }

  /// A kept version's first comment, in words: "A wrong fix: it …" becomes "it …".
  static func about(_ source: String) -> String {
    let comment = source.split(separator: "\n").prefix { $0.hasPrefix("//") }
      .map { $0.drop { $0 == "/" }.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    guard let colon = comment.firstIndex(of: ":") else { return comment }
    return comment[comment.index(after: colon)...].trimmingCharacters(in: .whitespaces)
  }

  /// Whether `text` holds none of the words a test checks with, outside a comment: no
  /// `#expect`, `#require`, `Issue.record`, `withKnownIssue`, an exploration's `.expect(` or a
  /// `throw`. It only picks the words of a verdict: whether a test asserts anything is what it did
  /// on the versions (see ``Judgement/assertsNothing``).
  static func holdsNoExpectation(_ text: String) -> Bool {
    let uncommented = text.replacingOccurrences(
      of: #"/\*[\s\S]*?\*/"#, with: "", options: .regularExpression)
    let code = uncommented.split(separator: "\n").map { line in
      line.range(of: "//").map { line[..<$0.lowerBound] } ?? line
    }.joined(separator: "\n")
    return !["#expect", "#require", "Issue.record", "withKnownIssue", ".expect("].contains {
      code.contains($0)
    } && code.range(of: #"\bthrow\b"#, options: .regularExpression) == nil
  }

  /// What the verdicts advise, in the chapter's own words: `Tests/Judges/<chapter>/advice.txt`
  /// holds `starter: …` (for a test that passes on the starter) and `missed: …` (for one that
  /// misses a wrong fix).
  static func advice(of chapter: Chapter, in course: Course) -> Advice {
    let text =
      (try? String(contentsOf: course.url("\(folder(of: chapter))/advice.txt"), encoding: .utf8))
      ?? ""
    func line(_ key: String) -> String? {
      text.split(separator: "\n").first { $0.hasPrefix("\(key): ") }
        .map { String($0.dropFirst(key.count + 2)) }
    }
    var advice = Advice()
    if let starter = line("starter") { advice.starter = starter }
    if let missed = line("missed") { advice.missed = missed }
    return advice
  }

  private func identifier(_ name: String) -> String {
    String(name.map { $0.isLetter || $0.isNumber ? $0 : "_" })
  }
}

extension Judgement {
  /// `message` with its replay line ("Replay exactly this run: …") building only the judge's
  /// module that printed it, when that module's name ends in `_<version>`, and without the line
  /// otherwise. The judge builds every version in one package, so the line it printed names them
  /// all in `WORKBOOK_JUDGE`: the names of the wrong fixes would tell what the lesson keeps back,
  /// and the replay would run the test on every version.
  static func replaying(in message: String, only version: String?) -> String {
    let marker = "Replay exactly this run: SCHEDULE_EXPLORER_REPLAY='"
    var lines = message.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    for index in lines.indices.reversed() {
      guard let start = lines[index].range(of: marker) else { continue }
      let module = lines[index][start.upperBound...].prefix { $0 != ":" }.dropLast("Tests".count)
      guard let version, module.hasSuffix("_\(version)"),
        let list = lines[index].range(of: #"WORKBOOK_JUDGE=[^ ]*"#, options: .regularExpression)
      else {
        lines.remove(at: index)
        continue
      }
      lines[index].replaceSubrange(list, with: "WORKBOOK_JUDGE=\(module)")
    }
    return lines.joined(separator: "\n")
  }
}

/// What a judge's verdicts advise, in a chapter's own words.
struct Advice {
  /// For a test that passes on the starter: what to reproduce.
  var starter = "Reproduce what the lesson's users report."
  /// For a test that misses a wrong fix: the question that finds it.
  var missed = "What would a user see, for it to show?"
}

/// What the judge found of one test file, and the lines a check prints for it.
struct Judgement {
  let versions: [Judge.Version]
  let reports: [String: ChapterReport]
  /// Whether the test's text holds none of the words a test checks with
  /// (``Judge/holdsNoExpectation(_:)``).
  let holdsNoExpectation: Bool
  /// What to advise, in the chapter's words.
  var advice = Advice()
  /// The workbook's own tests, as they ran on the student's actor, when `Solutions/` has them.
  var workbook: ChapterReport?

  private func report(of version: Judge.Version) -> ChapterReport? { reports[version.name] }

  /// `about` as a sentence of its own: "the workbook's fix" becomes "the workbook's fix.".
  private func sentence(_ about: String) -> String {
    about.last.map { ".!?".contains($0) } == true ? about : about + "."
  }

  /// Whether the test's run against `version` ended with a test failing.
  private func fails(on version: Judge.Version) -> Bool {
    guard let report = report(of: version) else { return false }
    return report.tests.contains { $0.outcome == .failed }
  }

  private func passes(on version: Judge.Version) -> Bool {
    report(of: version)?.verdict == .done
  }

  /// Whether the test failed on `version` because a caller never returned while the test still
  /// kept back its request, or the caller itself (the scenario's `Stalled` error says so): the
  /// test waited for something only it could let happen.
  private func waitsOnItself(on version: Judge.Version) -> Bool {
    report(of: version)?.tests.contains { test in
      test.outcome == .failed
        && test.messages.contains {
          $0.contains("never returned from")
            && ($0.contains("still waiting for the test") || $0.contains("held back by the test"))
        }
    } ?? false
  }

  /// The test waits on itself on a right design: where it does so on another version too, that
  /// failure tells nothing about the version.
  private var waitsOnItselfOnARightDesign: Bool { right.contains(where: waitsOnItself(on:)) }

  /// Whether the test's failure on `version` tells it from a right design.
  private func catches(_ version: Judge.Version) -> Bool {
    fails(on: version) && !(waitsOnItselfOnARightDesign && waitsOnItself(on: version))
  }

  var starter: Judge.Version? { versions.first { $0.kind == .starter } }
  var wrong: [Judge.Version] { versions.filter { $0.kind == .wrong } }
  var right: [Judge.Version] { versions.filter { $0.kind == .right } }
  var caught: [Judge.Version] { wrong.filter(catches) }
  var missed: [Judge.Version] { wrong.filter { !catches($0) } }
  var rejected: [Judge.Version] { right.filter { !passes(on: $0) } }
  var failsOnTheStarter: Bool { starter.map(catches) ?? false }
  var hasTests: Bool { (starter.flatMap(report(of:))?.total ?? 0) > 0 }

  /// The test failed on none of the workbook's versions, and its text holds nothing that checks:
  /// it asserts nothing yet. A test that fails on some version asserts something, whatever it
  /// checks with (an exploration's promise, a thrown error): this is read from what it did.
  var assertsNothing: Bool {
    holdsNoExpectation && !versions.contains { $0.kind != .yours && fails(on: $0) }
  }

  /// The test fails on the starter and every wrong fix, and passes every right design.
  var isGood: Bool {
    hasTests && failsOnTheStarter && missed.isEmpty && rejected.isEmpty
  }

  /// The judgement as three tests, in the order a student meets them, then the student's tests as
  /// they ran on the student's actor.
  func verdicts(chapter: Chapter) -> [TestVerdict] {
    let file = "Chapters/\(chapter.folder)/"
    var starterMessages: [String] = []
    if !hasTests {
      starterMessages.append(
        "Your test file in \(file) holds no @Test yet, so nothing judges the actor. Write a test "
          + "where the TODO is: the calls that reproduce what users report, and an #expect of "
          + "what they should have seen.")
    } else if assertsNothing {
      starterMessages.append(
        "Your test asserts nothing yet: it holds no #expect, #require, Issue.record or throw, "
          + "and it passes on every version of the actor the workbook keeps, the starter "
          + "included. Write the calls and the promise where the TODO is: what users should see, "
          + "as an #expect.")
    } else if !failsOnTheStarter, let starter, fails(on: starter) {
      starterMessages.append(
        "Your test stops on the starter the way it stops on a design that keeps the promise: a "
          + "caller never returns while the test still keeps back what it waits for. That tells "
          + "the starter from nothing; see the right designs below.")
    } else if !failsOnTheStarter {
      let everything = missed.count == wrong.count && rejected.isEmpty
      starterMessages.append(
        "Your test passes on the starter, whose users report the bug, so it cannot tell the bug "
          + "from a fix"
          + (everything && !wrong.isEmpty
            ? ": it passes on every version of the actor the workbook keeps, each wrong fix "
              + "included, so it catches nothing. " : ". ")
          + advice.starter)
    }
    var wrongMessages: [String] = []
    if !hasTests || assertsNothing {
      wrongMessages.append("It catches none of the \(wrong.count) until it asserts something.")
    } else if !failsOnTheStarter, !missed.isEmpty {
      // The wrong fixes are attempts at fixing the starter's bug: described before the test finds
      // that bug, they would tell it.
      wrongMessages.append(
        "Your test catches \(caught.count) of the \(wrong.count) wrong fixes the workbook keeps. "
          + "Make it fail on the starter first; then the verdict describes a wrong fix it misses.")
    } else if let one = missed.first {
      wrongMessages.append(
        "Your test catches \(caught.count) of the \(wrong.count) wrong fixes the workbook keeps. "
          + "One it misses: \(sentence(one.about)) A test that passes on it would let that fix "
          + "through. \(advice.missed)")
    }
    var rightMessages: [String] = []
    if let one = rejected.first(where: waitsOnItself(on:)) ?? rejected.first {
      // A replay line there would name every version the judge built, the hidden ones too.
      let said = report(of: one)?.tests.first { $0.outcome != .passed }?.messages.first
        .map { Self.replaying(in: $0, only: nil) }
      let why =
        waitsOnItself(on: one)
        ? "Your test does not finish on a design that keeps the chapter's promise: "
          + "\(sentence(one.about)) A caller never returned while the test still kept back "
          + "what it waited for, a request or the caller itself: does the test wait for a caller "
          + "before it lets that go? "
        : "Your test fails on a design that keeps the chapter's promise, so it asks for more "
          + "than the promise: \(sentence(one.about)) "
      rightMessages.append(
        why + (said.map { "On it, your test said:\n\($0)" } ?? "It did not finish on it."))
    }
    var verdicts = [
      TestVerdict(
        name: "Your test fails on the starter",
        outcome: starterMessages.isEmpty ? .passed : .failed, messages: starterMessages,
        location: nil),
      TestVerdict(
        name: "Your test catches the wrong fixes (\(caught.count) of \(wrong.count))",
        outcome: wrongMessages.isEmpty ? .passed : .failed, messages: wrongMessages,
        location: nil),
      TestVerdict(
        name: "Your test passes on the right designs (\(right.count - rejected.count) of "
          + "\(right.count))",
        outcome: rightMessages.isEmpty ? .passed : .failed, messages: rightMessages,
        location: nil),
    ]
    for index in verdicts.indices { verdicts[index].suite = "Judge" }
    if let yours = versions.first(where: { $0.kind == .yours }).flatMap(report(of:)) {
      verdicts += yours.tests.map { test in
        var mine = TestVerdict(
          name: "On your actor: \(test.name)", outcome: test.outcome,
          messages: test.messages.map { Self.replaying(in: $0, only: "yours") },
          location: test.location)
        mine.suite = test.suite
        mine.code = test.code
        mine.output = test.output
        mine.seconds = test.seconds
        return mine
      }
    }
    // The workbook's own tests run on the student's actor too, and count once the student's test
    // is judged good: an actor wrong in a way no kept version is still fails them.
    if isGood, let theirs = workbook {
      verdicts += theirs.tests.map { test in
        var verdict = TestVerdict(
          name: "The workbook's test on your actor: \(test.name)", outcome: test.outcome,
          messages: test.messages.map { Self.replaying(in: $0, only: "yours") },
          location: test.location)
        verdict.suite = test.suite
        verdict.output = test.output
        verdict.seconds = test.seconds
        return verdict
      }
    }
    return verdicts
  }
}
