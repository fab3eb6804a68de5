import Foundation
import Synchronization

/// Which code a suite runs against.
enum Variant: String {
  /// The student's code in `Chapters/`.
  case student
  /// `Solutions/`, as the self-check builds it.
  case solutions
  /// `Chapters/` in the self-check, where tests marked `.exposesBug` must fail.
  case starters
}

/// Builds and runs chapter suites, and reads their verdicts from Swift Testing's event stream.
struct SuiteRunner {
  let course: Course
  let variant: Variant
  var warningsAreErrors = false
  /// Where each chapter's exploration of every interleaving says how far it went, if anywhere.
  var explorationLog: URL?
  /// Where the build's steps (SwiftPM's `[12/40] Compiling …`) are shown while it builds.
  var progress: ProgressLine?
  /// Whether a failed expectation shows its expression, `(x → 3) == 2`, above its comment. The
  /// course's own tests explain every value in words; a test a student wrote may not.
  var showsExpressions = false
  /// Paths in the compiler's errors to name as others, such as a copy of a student's file under
  /// `.build/judge/` as the file the student wrote.
  var renamedPaths: [(copy: String, original: String)] = []
  /// How long the whole test run may take, instead of ``timeLimitPerChapter`` for each chapter it
  /// runs: a judge runs one chapter's test on many versions, each in a fraction of a second.
  var timeLimit: Duration?

  /// How long one chapter's tests may run before the workbook stops them. Every suite finishes
  /// in well under 2 seconds, and a deadlock fails its test after one; 20 seconds a chapter is
  /// far from both, and near enough that a student whose loop never ends is told soon.
  /// `WORKBOOK_TEST_TIME_LIMIT` (seconds a chapter) changes it, for a slow machine or a script.
  static var timeLimitPerChapter: Duration {
    let seconds = ProcessInfo.processInfo.environment["WORKBOOK_TEST_TIME_LIMIT"].flatMap(
      Double.init)
    return .seconds(seconds.map { max($0, 1) } ?? 20)
  }

  /// What building and running the suites gave.
  enum Outcome {
    /// The code did not compile; the compiler's errors, those of the focused chapter first.
    case doesNotCompile(String)
    /// One report per chapter, the seconds Swift Testing spent running the tests (or, when the
    /// run did not end, the seconds until it stopped), and the seconds the build took.
    case ran([ChapterReport], testTime: Double, buildTime: Double)
  }

  /// Builds the code, then runs the suites of `chapters` (every chapter when empty) and reads
  /// their verdicts from Swift Testing's event stream.
  ///
  /// A student's check builds only the chapters it runs, so that another chapter's unfinished
  /// code can never stop it. The build has no time limit; the tests
  /// run with the crash reporter off, since the runtime's "Fatal error" line already names the
  /// file and line, and under ``timeLimitPerChapter``.
  func run(_ chapters: [Chapter], focus: Chapter? = nil) throws(WorkbookError) -> Outcome {
    let (scratch, manifest) = build(of: chapters)
    var build =
      ["swift", "build", "--build-tests"] + Self.indexOwnCodeOnly + ["--scratch-path", scratch]
    if warningsAreErrors { build += ["-Xswiftc", "-warnings-as-errors"] }
    let buildStart = Date()
    let built = try Shell.run(build, in: course.root, environment: manifest) { [progress] line in
      if line.range(of: #"^\[[0-9]+/[0-9]+\] "#, options: .regularExpression) != nil {
        progress?.step(line)
      }
    }
    let buildTime = Date().timeIntervalSince(buildStart)
    guard built.succeeded else {
      let output = renamedPaths.reduce(built.output) {
        $0.replacingOccurrences(of: $1.copy, with: $1.original)
      }
      return .doesNotCompile(
        Diagnostics.errors(in: output, root: course.root, focus: focus)
          ?? output.split(separator: "\n").suffix(30).joined(separator: "\n"))
    }

    let ran = chapters.isEmpty ? course.chapters : chapters
    var environment = manifest
    environment["SWIFT_BACKTRACE"] = "enable=no"
    // An exploration's failure prints the command that replays it: this very build's.
    environment["SCHEDULE_EXPLORER_TEST_COMMAND"] =
      manifest.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value) " }.joined()
      + (["swift", "test", "--scratch-path", scratch] + Self.indexOwnCodeOnly).joined(
        separator: " ")
    if let explorationLog {
      try? FileManager.default.removeItem(at: explorationLog)
      environment["SCHEDULE_EXPLORER_LOG"] = explorationLog.path
    }
    progress?.step("running the tests…", always: true)
    let groups = self.groups(of: ran, judging: !chapters.compactMap(\.module).isEmpty)
    let runs = Mutex(
      [(reports: [ChapterReport], testTime: Double)?](
        repeating: nil, count: groups.count))
    let failure = Mutex(WorkbookError?.none)
    let testEnvironment = environment
    // Each group is a test process of its own, with a scheduler thread of its own, so the groups
    // use as many cores as there are. Within a process the tests still run one at a time.
    DispatchQueue.concurrentPerform(iterations: groups.count) { index in
      do throws(WorkbookError) {
        let run = try runTests(
          of: groups[index].map { ran[$0] }, group: index, scratch: scratch,
          environment: testEnvironment, filtered: groups.count > 1)
        runs.withLock { $0[index] = run }
      } catch {
        failure.withLock { $0 = error }
      }
    }
    if let error = failure.withLock({ $0 }) { throw error }
    let finished = runs.withLock { $0 }
    // The reports in the order of `ran`: a judge's copies all have the same chapter number.
    var reports = [ChapterReport?](repeating: nil, count: ran.count)
    for (group, run) in zip(groups, finished) {
      for (position, report) in zip(group, run?.reports ?? []) { reports[position] = report }
    }
    return .ran(
      reports.compactMap { $0 },
      // The groups start together: the tests took as long as the slowest of them.
      testTime: finished.compactMap { $0?.testTime }.max() ?? 0, buildTime: buildTime)
  }

  /// How many test processes run side by side, and which chapters each runs: one process per
  /// core, since each runs its tests on one thread, and no more than there are chapters. On the
  /// course's 2-core machine the solutions' tests took 2.1–2.5 s in one process and 1.2–1.4 s in
  /// two (idle). A judge's run stays whole: its versions are small, and it has a time limit of its
  /// own. On macOS, where `swift test` runs the tests, two of them would wait for each other's lock
  /// on the scratch path.
  ///
  /// - Returns: the positions of the chapters each process runs, in course order.
  private func groups(of chapters: [Chapter], judging: Bool) -> [[Int]] {
    #if os(Linux)
      let count = judging ? 1 : min(ProcessInfo.processInfo.activeProcessorCount, chapters.count, 8)
    #else
      let count = 1
    #endif
    guard count > 1 else { return [Array(chapters.indices)] }
    // The processes start together, and the tests take as long as the slowest, so the chapters
    // are shared out longest first, each to the process with the least to do so far.
    let weights = variant == .starters ? Self.startersMilliseconds : Self.solutionsMilliseconds
    let known = weights.values.sorted()
    let median = known.isEmpty ? 1 : known[known.count / 2]
    let weight = { (position: Int) in weights[chapters[position].number] ?? median }
    let longestFirst = chapters.indices.sorted { weight($0) > weight($1) }
    var groups = [[Int]](repeating: [], count: count)
    var loads = [Int](repeating: 0, count: count)
    for position in longestFirst {
      let lightest = loads.indices.min { loads[$0] < loads[$1] }!
      groups[lightest].append(position)
      loads[lightest] += weight(position)
    }
    return groups.map { $0.sorted() }
  }

  /// About how long each chapter's suite takes, in milliseconds, on the solutions and on the
  /// starters (which stop exploring at the first broken promise), as `Scripts/verify` built them,
  /// one chapter at a time on the course's 2-core machine. Only how evenly the processes share
  /// the work depends on these figures: a chapter missing here counts as a middling one.
  private static let solutionsMilliseconds: [String: Int] = [
    "01": 125, "02": 335, "03": 330, "04": 160, "05": 150, "06": 60, "07": 135, "08": 245,
    "09": 200, "10": 160, "11": 100, "12": 215, "13": 5, "14": 5, "15": 5,
  ]
  private static let startersMilliseconds: [String: Int] = [
    "01": 13, "02": 11, "03": 87, "04": 74, "05": 24, "06": 15, "07": 19, "08": 8, "09": 23,
    "10": 13, "11": 14, "12": 96, "13": 7, "14": 5, "15": 5,
  ]

  /// Runs the built tests of `chapters` in one process (only theirs when `filtered`), and reads
  /// their verdicts, and the seconds Swift Testing spent on them, from its event stream.
  private func runTests(
    of ran: [Chapter], group: Int, scratch: String, environment: [String: String],
    filtered: Bool
  ) throws(WorkbookError) -> (reports: [ChapterReport], testTime: Double) {
    // On Linux, Swift Testing writes its event stream into the same pipe as the tests' standard
    // output, so that what the code prints lands between the events of the test that printed
    // it. On macOS `swift test` runs the tests, and the stream goes to a file of its own, as it
    // does on a system without `/dev/stdout`.
    #if os(Linux)
      let piped = FileManager.default.fileExists(atPath: "/dev/stdout")
    #else
      let piped = false
    #endif
    let events =
      piped
      ? nil
      : FileManager.default.temporaryDirectory
        .appendingPathComponent("workbook-events-\(getpid())-\(group).jsonl")
    if let events { try? FileManager.default.removeItem(at: events) }
    defer { if let events { try? FileManager.default.removeItem(at: events) } }
    // In one process the tests run one at a time: whatever is printed while a test runs is then
    // that test's, and after a crash, the one test that was running is the one that crashed. The
    // test support runs every job of a process on one thread anyway: on a 2-core machine at a
    // load of 1, the solutions' tests took 1.0–1.1 s this way and 1.3–1.9 s side by side in one
    // process. A second process has a thread of its own (see `groups(of:judging:)`).
    var options = [
      "--event-stream-output-path", events?.path ?? "/dev/stdout", "--event-stream-version", "0",
      "--no-parallel",
    ]
    if filtered {
      options += ran.flatMap { ["--filter", "^\($0.testTarget)\\."] }
    }
    let unbuffered = events == nil ? Self.unbuffered() : nil
    let limit = timeLimit ?? Self.timeLimitPerChapter * ran.count
    let testStart = Date()
    let result = try Shell.run(
      (unbuffered ?? []) + testCommand(scratch: scratch) + options, in: course.root,
      environment: environment, timeLimit: limit,
      separatingStandardOutput: true)
    let testWallTime = Date().timeIntervalSince(testStart)

    let stream = events.map { (try? String(contentsOf: $0, encoding: .utf8)) ?? "" }
    let log = EventLog(
      stream ?? result.standardOutput, attributingOutput: unbuffered != nil,
      showingExpressions: showsExpressions)
    let folder = variant == .solutions ? "Solutions" : "Chapters"
    let problem: String?
    if result.timedOut {
      let seconds = limit.components.seconds
      problem =
        ran.count == 1
        ? "The tests were still running after \(seconds) seconds, so the workbook stopped them "
          + "and everything they started. Either something in \(folder)/\(ran[0].folder)/ never "
          + "returns, such as a loop that never ends, or a thread that waits for work that cannot "
          + "run until it goes on; or a design that steps off the actor many times gave an "
          + "exploration more schedules than that time allows: WORKBOOK_TEST_TIME_LIMIT=60 "
          + "gives the tests a minute."
        : "The tests were still running after \(seconds) seconds, so the workbook stopped them "
          + "and everything they started."
    } else if result.crashed || !log.runEnded {
      // The runtime names files by module, `Chapter01/ImageCache.swift`; name the folder instead.
      let signal = result.crashed && result.status > 128 ? result.status - 128 : nil
      problem = ran.reduce(Diagnostics.crash(in: result.output, signal: signal)) { text, chapter in
        text.replacingOccurrences(of: "\(chapter.target)/", with: "\(folder)/\(chapter.folder)/")
      }
    } else {
      problem = nil
    }
    // A crash stops every chapter of the run, but only one chapter's code crashed: the others
    // say whose it was, rather than pointing at a file that is not theirs as if it were.
    let crashed = problem.flatMap { text in
      result.timedOut ? nil : ran.first { text.contains("\(folder)/\($0.folder)/") }
    }
    let reports = ran.map { chapter in
      var stopped = problem
      if let crashed, let problem, crashed.number != chapter.number {
        stopped =
          "Chapter \(crashed.number)'s code crashed, not chapter \(chapter.number)'s: \(problem)"
      }
      return log.report(
        for: chapter, problem: stopped, timedOut: result.timedOut,
        tests: course.url("Tests/\(chapter.testTarget)"))
    }
    return (reports, log.testTime ?? testWallTime)
  }

  /// The command that makes a test process write its standard output unbuffered, so that each
  /// print reaches the pipe while its test runs: coreutils' `stdbuf`. `nil` where there is none;
  /// the tests' output is then not told apart.
  private static func unbuffered() -> [String]? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") + ["/usr/bin"] {
      let candidate = "\(directory)/stdbuf"
      if FileManager.default.isExecutableFile(atPath: candidate) { return [candidate, "-o0"] }
    }
    return nil
  }

  /// The scratch path of a build, and the environment that tells `Package.swift` what to declare.
  ///
  /// A student's build of chapter 03 declares chapter 03 alone. Every chapter's build shares
  /// `.build/check`, apart from `swift test`'s `.build` and from the `.build/chapters` of the
  /// lessons' plain `swift test` lines, which build without ``indexOwnCodeOnly``: what the
  /// chapters share is built once there, so a chapter's first check compiles that chapter and its
  /// tests, not the whole support. Each self-check variant builds every chapter in a scratch path
  /// of its own, so that switching between them never rebuilds everything.
  private func build(of chapters: [Chapter]) -> (scratch: String, environment: [String: String]) {
    let judged = chapters.compactMap(\.module)
    if !judged.isEmpty {
      // The versions a judge tries a student's test on, and no chapter: they share what the
      // chapters share, built once in `.build/check`.
      return (
        ".build/check",
        ["WORKBOOK_CHAPTERS": "", "WORKBOOK_JUDGE": judged.joined(separator: ",")]
      )
    }
    guard variant == .student else {
      return (".build/verify-\(variant.rawValue)", ["WORKBOOK_VERIFY": variant.rawValue])
    }
    let numbers = (chapters.isEmpty ? course.chapters : chapters).map(\.number)
    return (".build/check", ["WORKBOOK_CHAPTERS": numbers.joined(separator: ",")])
  }

  /// What every build of the workbook's adds to `swift build` and `swift test`.
  ///
  /// SwiftPM indexes a debug build as it compiles it, and on Linux it cannot find the tests
  /// without that index. But it also asks the compiler to index every system module that a file
  /// imports, once in each scratch path. No editor reads these builds, so they index their own
  /// code only: on the two-core machine a fresh clone's first
  /// `check 1` built in 16.9 s instead of 23.7 s. The flag reaches the modules SwiftPM writes
  /// itself to run the tests, which no setting in Package.swift does.
  static let indexOwnCodeOnly = ["-Xswiftc", "-index-ignore-system-modules"]

  /// The command that runs a built test product.
  private func testCommand(scratch: String) -> [String] {
    #if os(Linux)
      // On Linux the test product is an executable: running it directly saves the half second
      // that `swift test --skip-build` spends loading the package again.
      [
        "\(scratch)/debug/ActorReentrancyWorkbookPackageTests.xctest", "--testing-library",
        "swift-testing",
      ]
    #else
      // On macOS it is a bundle that only SwiftPM knows how to load.
      ["swift", "test", "--skip-build", "--scratch-path", scratch]
    #endif
  }
}

/// Swift Testing's event stream (version 0), one JSON object a line, read into verdicts. Any
/// other line is something the code under test printed.
private struct EventLog {
  private var names: [String: String] = [:]
  private var order: [String] = []
  /// Where each test is declared, to list the tests in the order of their files.
  private var declared: [String: (file: String, line: Int)] = [:]
  /// The path each test's file had when it was compiled.
  private var paths: [String: String] = [:]
  private var started: [String: Double] = [:]
  private var ended: [String: (passed: Bool, at: Double)] = [:]
  private var issues: [String: [(known: Bool, messages: [String], location: String?)]] = [:]
  /// What was printed while each test ran, by test.
  private var printed: [String: String] = [:]
  private(set) var runEnded = false
  /// The seconds the run took, from Swift Testing's closing message.
  private(set) var testTime: Double?

  /// Reads `stream`; with `attributingOutput`, where the tests ran one at a time, what is printed
  /// while a test runs is kept as that test's output; with `showingExpressions`, a failed
  /// expectation keeps its expression and difference above its comment.
  init(_ stream: String, attributingOutput: Bool, showingExpressions: Bool = false) {
    var running: [String] = []
    var lines = stream.split(separator: "\n", omittingEmptySubsequences: false)
    // What follows the last line break is a line only if the process wrote something after it.
    if lines.last?.isEmpty == true { lines.removeLast() }
    for line in lines {
      // A print without a newline runs into the event that follows it.
      let (text, event) = Self.split(line)
      if attributingOutput, !text.isEmpty || event == nil, running.count == 1 {
        printed[running[0], default: ""] += text + (event == nil ? "\n" : "")
      }
      guard let object = event, let payload = object["payload"] as? [String: Any] else { continue }
      if object["kind"] as? String == "test" {
        guard payload["kind"] as? String == "function", let id = payload["id"] as? String else {
          continue
        }
        names[id] = payload["displayName"] as? String ?? payload["name"] as? String ?? id
        let source = payload["sourceLocation"] as? [String: Any]
        declared[id] = (source?["fileID"] as? String ?? "", source?["line"] as? Int ?? 0)
        paths[id] = source?["_filePath"] as? String
        order.append(id)
        continue
      }
      let testID = payload["testID"] as? String ?? ""
      let messages = payload["messages"] as? [[String: Any]] ?? []
      let texts = messages.compactMap { $0["text"] as? String }
      let instant = (payload["instant"] as? [String: Any])?["absolute"] as? Double ?? 0
      switch payload["kind"] as? String {
      case "testStarted":
        guard names[testID] != nil else { break }
        started[testID] = instant
        running.append(testID)
      case "testEnded":
        let symbol = (payload["messages"] as? [[String: Any]])?.first?["symbol"] as? String
        ended[testID] = (symbol != "fail", instant)
        running.removeAll { $0 == testID }
      case "issueRecorded":
        let issue = payload["issue"] as? [String: Any]
        let source = issue?["sourceLocation"] as? [String: Any]
        let location = (source?["fileID"] as? String).map { file in
          "\(file.split(separator: "/").last ?? "")" + ":\(source?["line"] as? Int ?? 0)"
        }
        let known = issue?["isKnown"] as? Bool ?? false
        // A failed expectation comes as its expression (with, for collections, their difference
        // as a message of its own), then its explanation. The explanation says everything the
        // expression does, in words: show it alone.
        let described = messages.filter { $0["symbol"] as? String != "difference" }
          .compactMap { $0["text"] as? String }
        let explained =
          described.count > 1
            && (described[0] == "Issue recorded"
              || (described[0].hasPrefix("Expectation failed") && !showingExpressions))
          ? Array(described.dropFirst()) : texts
        issues[testID, default: []].append((known, explained, location))
      case "runEnded":
        runEnded = true
        testTime = texts.first.flatMap { text in
          text.range(of: #"after ([0-9.]+) seconds"#, options: .regularExpression).flatMap {
            Double(text[$0].split(separator: " ")[1])
          }
        }
      default:
        break
      }
    }
  }

  /// A line of the stream as what was printed before an event, and the event, if it holds one.
  private static func split(_ line: Substring) -> (String, [String: Any]?) {
    var start = line.range(of: #"{"kind":""#)
    while let found = start {
      if let object = try? JSONSerialization.jsonObject(with: Data(line[found.lowerBound...].utf8))
        as? [String: Any], object["payload"] != nil
      {
        return (String(line[..<found.lowerBound]), object)
      }
      start = line.range(of: #"{"kind":""#, range: found.upperBound..<line.endIndex)
    }
    return (String(line), nil)
  }

  /// The verdicts of `chapter`'s tests, whose files are in `tests`; `problem` says why the run
  /// stopped early, if it did.
  func report(
    for chapter: Chapter, problem: String?, timedOut: Bool, tests folder: URL
  ) -> ChapterReport {
    // Graders show the first failure first, so the tests keep the order they are written in.
    let ids = order.filter { $0.hasPrefix("\(chapter.testTarget).") }.sorted { a, b in
      let (x, y) = (declared[a] ?? ("", 0), declared[b] ?? ("", 0))
      return x.file == y.file ? x.line < y.line : x.file < y.file
    }
    let tests = ids.map { id in
      let recorded = issues[id] ?? []
      let outcome: TestVerdict.Outcome
      switch ended[id]?.passed {
      case nil: outcome = started[id] == nil ? .notRun : .didNotFinish
      case false?: outcome = .failed
      case true?: outcome = recorded.contains { $0.known } ? .failedAsExpected : .passed
      }
      // `Chapter01Tests.ImageCacheConcurrencyTests/callersAskingAtOnce()/ImageCacheTests.swift:10:4`
      let suite = id.split(separator: "/").first.map(String.init) ?? chapter.testTarget
      var verdict = TestVerdict(
        name: names[id] ?? id, outcome: outcome,
        messages: recorded.map { $0.messages.joined(separator: "\n") },
        location: recorded.first?.location)
      verdict.suite = suite
      verdict.code = source(of: id, in: folder)
      verdict.output = printed[id]
      verdict.seconds = started[id].flatMap { start in ended[id].map { $0.at - start } }
      return verdict
    }
    let passed = tests.filter { $0.outcome == .passed || $0.outcome == .failedAsExpected }.count
    let stopped: Bool =
      tests.contains { $0.outcome == .didNotFinish || $0.outcome == .notRun }
      || (tests.isEmpty && problem != nil)
    let verdict: ChapterReport.Verdict =
      stopped
      ? (timedOut ? .timedOut : .crashed)
      : passed == tests.count && !tests.isEmpty ? .done : .failing
    return ChapterReport(
      chapter: chapter.number, title: chapter.title, verdict: verdict, passed: passed,
      total: tests.count, tests: tests, problem: stopped ? problem : nil)
  }

  /// The body of test `id`, from its file in the test target's folder `folder` (the file ID
  /// names the file, `Chapter01Tests/ImageCacheTests.swift`), or where it was compiled.
  private func source(of id: String, in folder: URL) -> String? {
    guard let (file, line) = declared[id] else { return nil }
    let name = file.split(separator: "/").last.map(String.init) ?? file
    let here = folder.appendingPathComponent(name)
    if FileManager.default.fileExists(atPath: here.path) {
      return TestSource.body(in: here, at: line)
    }
    return paths[id].flatMap { TestSource.body(in: URL(fileURLWithPath: $0), at: line) }
  }
}
