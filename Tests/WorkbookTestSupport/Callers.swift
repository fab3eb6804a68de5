/// A group of callers started together by ``Scenario/start(_:_:_:)``.
public final class Callers<Value: Sendable>: Sendable {
  public let names: [String]
  let operation: String
  private let executor: SteppedExecutor
  private let scenario: Scenario
  private let finished = Locked<[String: Result<Value, any Error>]>([:])
  private let tasks = Locked<[String: Task<Void, Never>]>([:])

  init(names: [String], operation: String, executor: SteppedExecutor, scenario: Scenario) {
    self.names = names
    self.operation = operation
    self.executor = executor
    self.scenario = scenario
  }

  /// Stops these callers where they are: whatever would resume them waits in their queue until
  /// ``release()``, so that another caller can run in the gap.
  public func hold() {
    scenario.recordTestStep("holds \(names.joined(separator: ", ")) back")
    executor.hold()
  }

  public func release() {
    scenario.recordTestStep("lets \(names.joined(separator: ", ")) resume")
    executor.release()
  }

  /// Cancels the tasks of the named callers (all of them when `only` is empty), as a screen does
  /// when its user navigates away.
  public func cancel(_ only: String...) {
    let chosen = only.isEmpty ? names : only
    scenario.recordTestStep("cancels \(chosen.joined(separator: ", "))")
    let tasks = self.tasks.value
    for name in chosen {
      tasks[name]?.cancel()
    }
  }

  /// Whether every one of these callers has returned or thrown.
  public var allFinished: Bool {
    finished.value.count == names.count
  }

  /// Whether the named caller has returned or thrown.
  public func hasFinished(_ name: String) -> Bool {
    finished.value[name] != nil
  }

  /// Waits until a held caller is ready to resume, for example because its request finished.
  public func waitUntilReadyToResume() async throws {
    guard await scenario.wait(until: { self.executor.queuedJobs > 0 }) else {
      throw TimeLimitExceeded(
        """
        After \(scenario.timeLimit), caller \(names.joined(separator: ", ")) was still not ready to \
        resume after its request finished.
        """,
        events: scenario.events
      )
    }
  }

  /// What each caller got, in the order they were started, once all of them have finished.
  public func results() async throws -> [CallerResult<Value>] {
    let allFinished = await scenario.wait { self.allFinished }
    let finished = self.finished.value
    guard allFinished else {
      let waiting = names.filter { finished[$0] == nil }.joined(separator: ", ")
      throw TimeLimitExceeded(
        """
        Caller \(waiting) had not returned from \(operation) after \(scenario.timeLimit). Is it \
        waiting for work that waits for it (a deadlock)?
        """,
        events: scenario.events
      )
    }
    return names.map { CallerResult(caller: $0, result: finished[$0]!) }
  }

  func track(_ name: String, _ task: Task<Void, Never>) {
    tasks.withLock { $0[name] = task }
  }

  func finish(_ name: String, with result: Result<Value, any Error>) {
    finished.withLock { $0[name] = result }
  }
}

/// What one caller got back.
public struct CallerResult<Value: Sendable>: Sendable {
  public let caller: String
  public let result: Result<Value, any Error>

  public var value: Value? {
    try? result.get()
  }

  public var error: (any Error)? {
    if case .failure(let error) = result { error } else { nil }
  }
}
