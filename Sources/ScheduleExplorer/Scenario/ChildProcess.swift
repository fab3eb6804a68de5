import Foundation
import Testing

/// Lets an exit test say what its child process saw, even when the child crashed.
///
/// Swift Testing runs the body of `#expect(processExitsWith:)` in a child process, so a
/// continuation resumed twice kills the child, not the run. But when the child does not exit as
/// expected, the parent is told only how it ended (`.signal(SIGILL → 4)`): the child's output,
/// `ExitTest.Result`, is handed back only when the exit matched. So the child writes what it saw
/// to files the parent names: its standard error, where the runtime prints why it stopped, and
/// every event of its scenarios as it happens. The parent reads them in the expectation's comment,
/// which Swift Testing evaluates only when the expectation fails:
///
/// ```swift
/// let child = ChildProcess()
/// await #expect(processExitsWith: .success, child.explain("…", correctly: "…")) {
///   [log = child.log as String] in
///   await ChildProcess.record(to: log)
///   …
/// }
/// ```
public final class ChildProcess: Sendable {
  /// Where the child writes; the parent hands it to the child as a captured value.
  public let log: String

  /// Names fresh files for a child to write to, removed when this object goes.
  public init() {
    log =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("schedule-explorer-child-\(UUID().uuidString)").path
  }

  deinit {
    try? FileManager.default.removeItem(atPath: Self.eventsPath(log))
    try? FileManager.default.removeItem(atPath: Self.errorsPath(log))
  }

  /// A failure message for a child that did not exit as expected: what was expected, the reason
  /// the child gave for stopping, the timeline of the scenario it was running, and what a correct
  /// actor does instead.
  public func explain(_ expected: String, correctly: String) -> Comment {
    let errors = (try? String(contentsOfFile: Self.errorsPath(log), encoding: .utf8)) ?? ""
    let lines = errors.split(separator: "\n")
    // Spelled out case by case: as one chain of `??`, this took the type checker 8.6 s.
    let reason: String
    if let stuck = lines.first(where: { $0.hasPrefix(Self.stuck) }) {
      reason = String(stuck)
    } else if let threw = lines.first(where: { $0.hasPrefix(Self.threw) }) {
      // The test itself gave up: the child ended on purpose, and the error says why.
      reason = "The test, in a process of its own, threw: \(threw.dropFirst(Self.threw.count))"
    } else if let fatal = lines.first(where: { $0.contains("Fatal error") }) {
      reason = "The test's process ended before the test did. It stopped with: \(fatal)"
    } else if let last = lines.last {
      reason =
        "The test's process ended before the test did, without a fatal error message; the last "
        + "line it wrote was: \(last)"
    } else {
      reason = "The test's process ended before the test did, without a fatal error message."
    }
    return Comment(
      rawValue: """
        \(expected)
        \(reason)
        \(drawTimeline(Self.lastScenarioEvents(in: log)))
        With a correct actor: \(correctly)
        """)
  }

  // MARK: In the child

  private static let sink = Locked<FileHandle?>(nil)

  /// Sends this process's standard error, and every event any scenario records from now on, to
  /// the files of `log`. Call it first thing in an exit test's body.
  ///
  /// The child runs that one body and ends, outside the parent's ``Trait/testScheduler`` scope, so
  /// this also hands the child's global executor to the test scheduler for the rest of the
  /// child's life, and goes on in a job of the scheduler's: from here on the body runs on the
  /// scheduler's thread, as a test in the parent does, never beside it.
  public static func record(to log: String) async {
    _ = FileManager.default.createFile(atPath: eventsPath(log), contents: nil)
    _ = FileManager.default.createFile(atPath: errorsPath(log), contents: nil)
    if let errors = FileHandle(forWritingAtPath: errorsPath(log)) {
      dup2(errors.fileDescriptor, STDERR_FILENO)
    }
    sink.withLock { $0 = FileHandle(forWritingAtPath: eventsPath(log)) }
    endAfterTheDeadline()
    Scheduler.shared.beginTakeover()
    await goOnOnTheScheduler()
  }

  /// Runs the rest of an exit test's body after ``record(to:)``. An error `body` throws ends the
  /// child at once, with the error's first line written where ``explain(_:correctly:)`` reads why
  /// the child stopped, so that a test that threw, such as one whose caller never returned, is
  /// not read as a crash.
  public static func run(_ body: () async throws -> Void) async {
    do {
      try await body()
    } catch {
      let first = describe(error).split(separator: "\n").first.map(String.init) ?? ""
      FileHandle.standardError.write(Data((threw + first + "\n").utf8))
      exit(EXIT_FAILURE)
    }
  }

  /// What starts the line ``run(_:)`` writes for an error.
  private static let threw = "The test threw: "

  /// How long a child may run. A body stuck where no scenario's wait can end it, such as a job
  /// that blocks the scheduler's thread for good, would otherwise keep the parent's
  /// `#expect(processExitsWith:)` waiting, and the run with it, however long its waits may take.
  /// The workbook's `check` stops a chapter's tests after 20 s; this comes first, so that the
  /// other tests still run.
  static let deadline = 10

  /// What starts the line a child writes when it ends itself at the ``deadline``.
  private static let stuck = "The test's process was still running after"

  /// Ends the child once the ``deadline`` has passed, saying so where the parent reads why.
  private static func endAfterTheDeadline() {
    let watch = Thread {
      Thread.sleep(forTimeInterval: Double(deadline))
      let why =
        "\(stuck) \(deadline) s, so it ended itself: something in it never returned, such as a "
        + "job that waits for good for work that cannot run until it ends."
      FileHandle.standardError.write(Data((why + "\n").utf8))
      _exit(EXIT_FAILURE)
    }
    watch.name = "schedule explorer: a child's deadline"
    watch.start()
  }

  /// Writes `event` of `scenario` down at once, in a child that records: if the next step crashes
  /// the child, the parent still sees it.
  static func note(_ event: Event, in scenario: Scenario) {
    sink.withLock { sink in
      guard let sink else { return }
      let lane = event.isTestStep ? "test" : event.caller ?? ""
      let text = event.text.replacingOccurrences(of: "\n", with: " ")
      sink.write(Data("\(ObjectIdentifier(scenario).hashValue)\t\(lane)\t\(text)\n".utf8))
    }
  }

  // MARK: Reading it back

  private static func eventsPath(_ log: String) -> String { log + ".events" }
  private static func errorsPath(_ log: String) -> String { log + ".stderr" }

  /// The events of the scenario that recorded last: the one the child was running when it ended.
  private static func lastScenarioEvents(in log: String) -> [Event] {
    let text = (try? String(contentsOfFile: eventsPath(log), encoding: .utf8)) ?? ""
    let lines = text.split(separator: "\n").map { $0.split(separator: "\t", maxSplits: 2) }
    guard let last = lines.last?.first else { return [] }
    return lines.filter { $0.first == last && $0.count == 3 }.map { fields in
      let (lane, text) = (String(fields[1]), String(fields[2]))
      return lane == "test"
        ? Event(caller: nil, kind: .test(text))
        : Event(caller: lane.isEmpty ? nil : lane, kind: .observed(text))
    }
  }
}
