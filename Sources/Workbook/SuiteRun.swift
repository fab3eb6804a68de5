import Foundation

/// Which code a suite runs against.
enum Variant: String {
  /// The student's code in `Chapters/`.
  case student
  /// `Solutions/`, as the self-check builds it.
  case solutions
  /// `Chapters/` in the self-check, where tests marked `.exposesBug` must fail.
  case starters

  /// The environment that `Package.swift` and the `.exposesBug` trait read.
  var environment: [String: String] {
    self == .student ? [:] : ["WORKBOOK_VERIFY": rawValue]
  }

  /// The student's build shares `swift test`'s `.build`; each self-check variant has its own, so
  /// that switching between them never rebuilds everything.
  var scratchArguments: [String] {
    self == .student ? [] : ["--scratch-path", ".build/verify-\(rawValue)"]
  }
}

/// Builds and runs chapter suites, and reads their verdicts from Swift Testing's event stream.
struct SuiteRunner {
  let course: Course
  let variant: Variant
  var warningsAreErrors = false

  /// What building and running the suites gave.
  enum Outcome {
    /// The code did not compile; the compiler's errors, those of the focused chapter first.
    case doesNotCompile(String)
    /// One report per chapter, and the time Swift Testing spent running the tests.
    case ran([ChapterReport], testTime: Double?)
  }

  /// Builds the code and runs the suites of `chapters` (every chapter when empty) in one
  /// `swift test`, which is as fast as the toolchain goes from an edit to a verdict, and reads
  /// the verdicts from Swift Testing's event stream.
  func run(_ chapters: [Chapter], focus: Chapter? = nil) throws(WorkbookError) -> Outcome {
    let events = FileManager.default.temporaryDirectory
      .appendingPathComponent("workbook-events-\(ProcessInfo.processInfo.processIdentifier).jsonl")
    try? FileManager.default.removeItem(at: events)
    defer { try? FileManager.default.removeItem(at: events) }
    var arguments = ["swift", "test"] + variant.scratchArguments
    if warningsAreErrors { arguments += ["-Xswiftc", "-warnings-as-errors"] }
    if !chapters.isEmpty {
      arguments += ["--filter", chapters.map { "\($0.testTarget)\\." }.joined(separator: "|")]
    }
    arguments += ["--event-stream-output-path", events.path, "--event-stream-version", "0"]
    let result = try Shell.run(arguments, in: course.root, environment: variant.environment)
    let stream = (try? String(contentsOf: events, encoding: .utf8)) ?? ""
    if stream.isEmpty, !result.succeeded {
      return .doesNotCompile(
        Diagnostics.errors(in: result.output, root: course.root, focus: focus)
          ?? result.output.split(separator: "\n").suffix(30).joined(separator: "\n"))
    }
    let log = EventLog(stream)
    let crash = result.crashed || !log.runEnded ? Diagnostics.crash(in: result.output) : nil
    let folder = variant == .solutions ? "Solutions" : "Chapters"
    return .ran(
      (chapters.isEmpty ? course.chapters : chapters).map { chapter in
        // The runtime names files by module, `Chapter01/ImageCache.swift`; name the folder instead.
        let located = crash?.replacingOccurrences(
          of: "\(chapter.target)/", with: "\(folder)/\(chapter.folder)/")
        return log.report(for: chapter, crash: located)
      },
      testTime: log.testTime)
  }
}

/// Swift Testing's event stream (version 0), one JSON object a line, read into verdicts.
private struct EventLog {
  private var names: [String: String] = [:]
  private var order: [String] = []
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
        order.append(id)
        continue
      }
      let testID = payload["testID"] as? String ?? ""
      let texts = (payload["messages"] as? [[String: Any]] ?? []).compactMap {
        $0["text"] as? String
      }
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
        issues[testID, default: []].append((known, texts, location))
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

  func report(for chapter: Chapter, crash: String?) -> ChapterReport {
    let ids = order.filter { $0.hasPrefix("\(chapter.testTarget).") }
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
    let crashed = tests.contains { $0.outcome == .didNotFinish } || (tests.isEmpty && crash != nil)
    let verdict: ChapterReport.Verdict =
      crashed ? .crashed : passed == tests.count && !tests.isEmpty ? .done : .failing
    return ChapterReport(
      chapter: chapter.number, title: chapter.title, verdict: verdict, passed: passed,
      total: tests.count, tests: tests, problem: crashed ? crash : nil)
  }
}
