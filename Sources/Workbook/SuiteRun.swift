import Foundation

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
  /// Where Swift Testing writes its JUnit XML report of the run, if anywhere: a file of the
  /// workbook's own, which the run replaces.
  var junit: URL?
  /// Where each chapter's exploration of every interleaving says how far it went, if anywhere.
  var explorationLog: URL?
  /// Where the build's steps (SwiftPM's `[12/40] Compiling …`) are shown while it builds.
  var progress: ProgressLine?

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
    if let junit { try? FileManager.default.removeItem(at: junit) }
    var build = ["swift", "build", "--build-tests", "--scratch-path", scratch]
    if warningsAreErrors { build += ["-Xswiftc", "-warnings-as-errors"] }
    let buildStart = Date()
    let built = try Shell.run(build, in: course.root, environment: manifest) { [progress] line in
      if line.range(of: #"^\[[0-9]+/[0-9]+\] "#, options: .regularExpression) != nil {
        progress?.step(line)
      }
    }
    let buildTime = Date().timeIntervalSince(buildStart)
    guard built.succeeded else {
      return .doesNotCompile(
        Diagnostics.errors(in: built.output, root: course.root, focus: focus)
          ?? built.output.split(separator: "\n").suffix(30).joined(separator: "\n"))
    }

    let events = FileManager.default.temporaryDirectory
      .appendingPathComponent("workbook-events-\(getpid()).jsonl")
    try? FileManager.default.removeItem(at: events)
    defer { try? FileManager.default.removeItem(at: events) }
    var options = ["--event-stream-output-path", events.path, "--event-stream-version", "0"]
    if let junit { options += ["--xunit-output", junit.path] }
    let ran = chapters.isEmpty ? course.chapters : chapters
    var environment = manifest
    environment["SWIFT_BACKTRACE"] = "enable=no"
    if let explorationLog {
      try? FileManager.default.removeItem(at: explorationLog)
      environment["WORKBOOK_EXPLORATION_LOG"] = explorationLog.path
    }
    progress?.step("running the tests…", always: true)
    let testStart = Date()
    let result = try Shell.run(
      testCommand(scratch: scratch) + options, in: course.root, environment: environment,
      timeLimit: Self.timeLimitPerChapter * ran.count)
    let testWallTime = Date().timeIntervalSince(testStart)

    let log = EventLog((try? String(contentsOf: events, encoding: .utf8)) ?? "")
    let folder = variant == .solutions ? "Solutions" : "Chapters"
    let problem: String?
    if result.timedOut {
      let seconds = Int(Self.timeLimitPerChapter.components.seconds) * ran.count
      problem =
        ran.count == 1
        ? "The tests were still running after \(seconds) seconds, so the workbook stopped them "
          + "and everything they started: something in \(folder)/\(ran[0].folder)/ never returns, "
          + "such as a loop that never ends."
        : "The tests were still running after \(seconds) seconds, so the workbook stopped them "
          + "and everything they started."
    } else if result.crashed || !log.runEnded {
      problem = Diagnostics.crash(in: result.output)
    } else {
      problem = nil
    }
    return .ran(
      ran.map { chapter in
        // The runtime names files by module, `Chapter01/ImageCache.swift`; name the folder instead.
        let located = problem?.replacingOccurrences(
          of: "\(chapter.target)/", with: "\(folder)/\(chapter.folder)/")
        return log.report(for: chapter, problem: located, timedOut: result.timedOut)
      },
      testTime: log.testTime ?? testWallTime, buildTime: buildTime)
  }

  /// The scratch path of a build, and the environment that tells `Package.swift` what to declare.
  ///
  /// A student's build of chapter 03 declares chapter 03 alone. Every chapter's build shares
  /// `.build/chapters`, apart from `swift test`'s `.build`: what the chapters share is built once
  /// there, so a chapter's first check compiles that chapter and its tests, not the whole support.
  /// Each self-check variant builds every chapter in a scratch path of its own, so that switching
  /// between them never rebuilds everything.
  private func build(of chapters: [Chapter]) -> (scratch: String, environment: [String: String]) {
    guard variant == .student else {
      return (".build/verify-\(variant.rawValue)", ["WORKBOOK_VERIFY": variant.rawValue])
    }
    let numbers = (chapters.isEmpty ? course.chapters : chapters).map(\.number)
    return (".build/chapters", ["WORKBOOK_CHAPTERS": numbers.joined(separator: ",")])
  }

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

/// Swift Testing's event stream (version 0), one JSON object a line, read into verdicts.
private struct EventLog {
  private var names: [String: String] = [:]
  private var order: [String] = []
  /// Where each test is declared, to list the tests in the order of their files.
  private var declared: [String: (file: String, line: Int)] = [:]
  private var ended: [String: Bool] = [:]
  private var issues: [String: [(known: Bool, messages: [String], location: String?)]] = [:]
  private(set) var runEnded = false
  /// The seconds the run took, from Swift Testing's closing message.
  private(set) var testTime: Double?

  init(_ stream: String) {
    for line in stream.split(separator: "\n") {
      guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        let payload = object["payload"] as? [String: Any]
      else { continue }
      if object["kind"] as? String == "test" {
        guard payload["kind"] as? String == "function", let id = payload["id"] as? String else {
          continue
        }
        names[id] = payload["displayName"] as? String ?? payload["name"] as? String ?? id
        let source = payload["sourceLocation"] as? [String: Any]
        declared[id] = (source?["fileID"] as? String ?? "", source?["line"] as? Int ?? 0)
        order.append(id)
        continue
      }
      let testID = payload["testID"] as? String ?? ""
      let messages = payload["messages"] as? [[String: Any]] ?? []
      let texts = messages.compactMap { $0["text"] as? String }
      switch payload["kind"] as? String {
      case "testEnded":
        let symbol = (payload["messages"] as? [[String: Any]])?.first?["symbol"] as? String
        ended[testID] = symbol != "fail"
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
            && (described[0].hasPrefix("Expectation failed") || described[0] == "Issue recorded")
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

  /// The verdicts of `chapter`'s tests; `problem` says why the run stopped early, if it did.
  func report(for chapter: Chapter, problem: String?, timedOut: Bool) -> ChapterReport {
    // Graders show the first failure first, so the tests keep the order they are written in.
    let ids = order.filter { $0.hasPrefix("\(chapter.testTarget).") }.sorted { a, b in
      let (x, y) = (declared[a] ?? ("", 0), declared[b] ?? ("", 0))
      return x.file == y.file ? x.line < y.line : x.file < y.file
    }
    let tests = ids.map { id in
      let recorded = issues[id] ?? []
      let outcome: TestVerdict.Outcome
      switch ended[id] {
      case nil: outcome = .didNotFinish
      case false?: outcome = .failed
      case true?: outcome = recorded.contains { $0.known } ? .failedAsExpected : .passed
      }
      return TestVerdict(
        name: names[id] ?? id, outcome: outcome,
        messages: recorded.map { $0.messages.joined(separator: "\n") },
        location: recorded.first?.location)
    }
    let passed = tests.filter { $0.outcome == .passed || $0.outcome == .failedAsExpected }.count
    let stopped =
      tests.contains { $0.outcome == .didNotFinish } || (tests.isEmpty && problem != nil)
    let verdict: ChapterReport.Verdict =
      stopped
      ? (timedOut ? .timedOut : .crashed)
      : passed == tests.count && !tests.isEmpty ? .done : .failing
    return ChapterReport(
      chapter: chapter.number, title: chapter.title, verdict: verdict, passed: passed,
      total: tests.count, tests: tests, problem: stopped ? problem : nil)
  }
}
