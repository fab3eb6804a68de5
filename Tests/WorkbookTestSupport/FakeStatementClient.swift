import ScheduleExplorer
import Services
import Testing

/// A ``LegacyStatementClient`` whose fetches wait until the test lets them finish, and then call
/// back in the way the test chose.
///
/// What ``LegacyStatementClient`` documents, and how this fake does it:
/// - "The statements service's client from before Swift concurrency": every fetch returns at once
///   and calls back later from a task of its own, on the scheduler's thread rather than one of
///   the client's own (``ThreadedStatementClient`` calls back from one).
/// - "That thread may call it before the call that started the request has returned": not
///   produced; this fake calls back from a task that runs once the fetch has returned
///   (``ThreadedStatementClient`` answers before it returns).
/// - "Starts fetching the statement": fetch *n* waits until the test lets it finish.
/// - "with the statement, or with an error": the outcome `statement`, statement number *n* for
///   fetch *n*, and the outcome `error`, a ``FakeNetworkError``.
/// - "with neither": the outcome `neither`, no statement and no error.
/// - "twice, when the request times out": the outcome `twice`, a ``LegacyTimeout`` and then the
///   statement; and the outcome `timeout`, a ``LegacyTimeout`` only, the statement never arriving.
/// - "never, once the request has been cancelled": a fetch called off never calls back.
public final class FakeStatementClient: LegacyStatementClient, FakeService {
  public let requests: Requests
  private let scenario: Scenario

  public init(_ scenario: Scenario) {
    self.scenario = scenario
    requests = Requests(
      noun: "fetch", outcomes: ["statement", "error", "neither", "twice", "timeout"],
      scenario: scenario)
  }

  /// The fetches that are still running: started, not answered, and not called off.
  public var running: [Requests.Record] {
    requests.records.filter { $0.isInFlight && !$0.wasCancelled }
  }

  public func fetchStatement(
    for month: String, completion: @escaping @Sendable (Statement?, (any Error)?) -> Void
  ) -> any LegacyRequest {
    let work = Task {
      // The client's own thread: it waits for the test, then calls back. When the request is
      // called off, `perform` throws, and the client says nothing more.
      guard
        let callbacks = try? await requests.perform(
          for: month,
          respond: { number, outcome in Self.answer(outcome, number: number, month: month) })
      else { return }
      for (index, (statement, error)) in callbacks.enumerated() {
        let what =
          statement.map(describe) ?? error.map(describe) ?? "neither a statement nor an error"
        scenario.recordObservation("\(index == 0 ? "calls back" : "calls back again") with \(what)")
        completion(statement, error)
      }
    }
    return CalledOff(work)
  }

  /// What fetch `number` calls back with, in order, and how its answer reads in the timeline.
  private static func answer(
    _ outcome: String, number: Int, month: String
  ) -> (response: [(Statement?, (any Error)?)], summary: String) {
    let statement = Self.statement(number, month: month)
    return switch outcome {
    case "error": ([(nil, FakeNetworkError(request: number))], "fails on the server")
    case "neither": ([(nil, nil)], "finds no statement")
    case "twice":
      ([(nil, LegacyTimeout()), (statement, nil)], "times out, then the statement arrives")
    case "timeout": ([(nil, LegacyTimeout())], "times out, and the statement never arrives")
    default: ([(statement, nil)], "returns \(describe(statement))")
    }
  }

  /// The statement fetch `number` returns: its closing balance, $1,000.00 times the number, tells
  /// which fetch it came from.
  public static func statement(_ number: Int, month: String) -> Statement {
    Statement(month: month, closingBalance: number * 100_000)
  }

  /// The number of the fetch that returned `statement`.
  static func fetchNumber(of statement: Statement) -> Int {
    statement.closingBalance / 100_000
  }
}

/// The fake's request handle: calling it off cancels the work that waits for the test.
///
/// What ``LegacyRequest`` documents, and how this fake does it:
/// - "A request that the legacy client has started": the task that waits for the test's answer.
/// - "Calls the request off": cancels that task; the fetch is recorded as cancelled.
/// - "The service stops working on it": the task ends without calling back.
private struct CalledOff: LegacyRequest {
  let work: Task<Void, Never>

  init(_ work: Task<Void, Never>) {
    self.work = work
  }

  func cancel() {
    work.cancel()
  }
}

extension Statement: CustomTestStringConvertible {
  /// `statement #2 of 2026-11`, naming the fake fetch that returned it.
  public var testDescription: String {
    "statement #\(FakeStatementClient.fetchNumber(of: self)) of \(month)"
  }
}

extension LegacyTimeout: CustomTestStringConvertible {
  public var testDescription: String { "LegacyTimeout" }
}

extension NoStatement: CustomTestStringConvertible {
  public var testDescription: String { "NoStatement(\(month))" }
}
