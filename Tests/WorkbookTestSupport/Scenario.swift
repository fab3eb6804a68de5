import Foundation
import Testing

/// The world of one test: the callers it starts, the fakes it controls, and what they observed.
///
/// A test starts callers with ``start(_:_:_:)``, lets them all run until they suspend with
/// ``settle()``, and then decides what the fakes do next. Every wait is bounded by ``timeLimit``,
/// so that an actor which deadlocks fails its test in about a second instead of hanging the run.
public final class Scenario: Sendable {
  /// How long any single wait may take. Correct code needs a few milliseconds.
  public let timeLimit: Duration

  private struct State {
    var events: [Event] = []
    var requestsStarted = 0
    var callerCount = 0
    var executors: [SteppedExecutor] = []
    var unfinishedCallers: Set<String> = []
    var callerExecutors: [String: UnownedTaskExecutor] = [:]
    var waiters: [Int: Waiter] = [:]
    var nextWaiterID = 0
  }

  private struct Waiter {
    let condition: @Sendable () -> Bool
    let continuation: CheckedContinuation<Bool, Never>
    var timer: Task<Void, Never>?
  }

  private let state = Locked(State())

  public init(timeLimit: Duration = .seconds(1)) {
    self.timeLimit = timeLimit
  }

  deinit {
    for executor in state.value.executors {
      executor.shutDown()
    }
  }

  // MARK: Callers

  /// Starts `count` callers that each run `body` at the same time, named A, B, C, … in the order
  /// they were started across the whole scenario.
  ///
  /// The callers run one at a time on an executor of their own, each until it suspends; nothing a
  /// caller does is left to the thread scheduler.
  ///
  /// - Parameters:
  ///   - operation: what the callers do, as the timeline shows it, such as `image(for: cat.png)`.
  public func start<Value: Sendable>(
    _ count: Int,
    _ operation: String,
    _ body: @escaping @Sendable () async throws -> Value
  ) -> Callers<Value> {
    let (names, executor) = state.withLock { state in
      let names = (0..<count).map { Self.callerName(state.callerCount + $0) }
      state.callerCount += count
      state.unfinishedCallers.formUnion(names)
      let executor = SteppedExecutor(name: "callers \(names.joined())") { [weak self] in
        self?.checkWaiters()
      }
      state.executors.append(executor)
      for name in names {
        state.callerExecutors[name] = executor.asUnownedTaskExecutor()
      }
      return (names, executor)
    }
    let callers = Callers<Value>(
      names: names, operation: operation, executor: executor, scenario: self)
    for name in names {
      let task = Task(executorPreference: executor) {
        await CurrentCaller.$name.withValue(name) {
          self.record(.asked(operation))
          let result: Result<Value, any Error>
          do {
            let value = try await body()
            self.record(.returned(value is Void ? nil : describe(value)))
            result = .success(value)
          } catch {
            self.record(.threw(describe(error)))
            result = .failure(error)
          }
          callers.finish(name, with: result)
          self.state.withLock { _ = $0.unfinishedCallers.remove(name) }
          self.checkWaiters()
        }
      }
      callers.track(name, task)
    }
    return callers
  }

  /// Calls `body` twice so that the second call lands in the narrowest gap an `await` leaves: the
  /// first caller's request has finished, but the first caller has not yet resumed to act on it.
  ///
  /// Caller A starts and runs until it suspends; the test holds A back, lets every request of
  /// `fake` finish, and waits until A is ready to resume. Only then does caller B start and run as
  /// far as it can, before A is let go. A correct actor still knows, in that gap, that A's work
  /// exists, so B joins it instead of starting its own.
  ///
  /// - Returns: what A and B got, in that order.
  public func callInTheGap<Value: Sendable>(
    _ operation: String,
    answering fake: some FakeService,
    _ body: @escaping @Sendable () async throws -> Value
  ) async throws -> [CallerResult<Value>] {
    let first = start(1, operation, body)
    try await settle()
    first.hold()
    fake.open()
    try await first.waitUntilReadyToResume()
    let second = start(1, operation, body)
    try await settle()
    first.release()
    return try await first.results() + second.results()
  }

  /// Runs one caller to completion and hands back what it returned, or throws what it threw.
  public func call<Value: Sendable>(
    _ operation: String,
    _ body: @escaping @Sendable () async throws -> Value
  ) async throws -> Value {
    let caller = start(1, operation, body)
    return try await caller.results()[0].result.get()
  }

  /// Waits until every caller has either finished or suspended at an `await`, and at least one
  /// request has reached a fake (or every caller has finished).
  ///
  /// Waiting for a request matters when the actor starts its work in a `Task {}`: such a task
  /// does not run on the callers' executor, so the callers can be idle before it has begun.
  public func settle() async throws {
    let settled = await wait {
      let (requests, unfinished) = self.state.withLock {
        ($0.requestsStarted, $0.unfinishedCallers)
      }
      return (requests > 0 || unfinished.isEmpty) && self.callersAreSettled
    }
    if !settled {
      let unfinished = state.value.unfinishedCallers.sorted()
      let who = unfinished.count == 1 ? "caller" : "callers"
      throw TimeLimitExceeded(
        """
        After \(timeLimit), no request had reached the fake and \(who) \
        \(unfinished.joined(separator: ", ")) had not returned. Is a caller waiting for work that \
        waits for it (a deadlock), or is the actor busy in a loop?
        """,
        events: events
      )
    }
  }

  /// Whether every caller has either finished or suspended, with nothing of theirs left to run
  /// (held callers count as settled). For conditions of a test's own; ``settle()`` is the usual way.
  public var callersAreSettled: Bool {
    let executors = state.value.executors
    // One caller can wake another between two executors' readings, so read the enqueue counts
    // around the check: if they moved, the answer is stale and the next change asks again.
    let before = executors.map(\.enqueuedSoFar)
    let idle = executors.allSatisfy(\.isSettled)
    let after = executors.map(\.enqueuedSoFar)
    return idle && before == after
  }

  /// Waits until `condition` holds, and answers whether it did within the time limit.
  ///
  /// The condition is evaluated again whenever a caller, an executor or a fake changes state, never
  /// by polling.
  public func wait(until condition: @escaping @Sendable () -> Bool) async -> Bool {
    await withCheckedContinuation { continuation in
      let id = state.withLock { state in
        let id = state.nextWaiterID
        state.nextWaiterID += 1
        state.waiters[id] = Waiter(condition: condition, continuation: continuation)
        return id
      }
      // A watchdog, not a way to wait for the race: the condition normally resolves the wait long
      // before the timer fires.
      let timer = Task { [timeLimit] in
        try? await Task.sleep(for: timeLimit)
        self.resolveWaiter(id, satisfied: false)
      }
      let stillWaiting = state.withLock { state in
        state.waiters[id]?.timer = timer
        return state.waiters[id] != nil
      }
      if !stillWaiting { timer.cancel() }
      checkWaiters()
    }
  }

  // MARK: Observations

  /// A failure message that ends with the timeline of what happened and what a correct actor
  /// would have done instead.
  ///
  /// Pass it as the comment of `#expect`: Swift Testing evaluates the comment only when the
  /// expectation fails, so a passing test never draws a timeline.
  ///
  /// - Parameters:
  ///   - message: what was expected, what happened, and where to look.
  ///   - correctly: the interleaving a correct actor shows, such as `B joins download #1`.
  public func explain(_ message: String, correctly: String) -> Comment {
    Comment(rawValue: "\(message)\n\(drawTimeline(events))\nWith a correct actor: \(correctly)")
  }

  /// Whether work that ran on `executor` (see ``currentTaskExecutor()``) ran within caller
  /// `name`: in its task or in a child task of it (`async let`, a task group), which keep the
  /// caller's executor, and not in a `Task {}` it created, which does not.
  func isWithin(_ executor: UnownedTaskExecutor?, caller name: String) -> Bool {
    executor != nil && state.value.callerExecutors[name] == executor
  }

  /// Records a step the test takes, such as letting the downloads finish, in the timeline.
  func recordTestStep(_ step: String) {
    CurrentCaller.$name.withValue(nil) {
      record(.test(step))
    }
  }

  func record(_ kind: Event.Kind) {
    record(kind, by: CurrentCaller.name)
  }

  /// Records an event for `caller`, for work done on a caller's behalf by another thread, such as
  /// a fake answering a request when the test releases it.
  func record(_ kind: Event.Kind, by caller: String?) {
    state.withLock { state in
      if Self.keepsTimeline {
        state.events.append(Event(caller: caller, kind: kind))
      }
      if case .requestStarted = kind { state.requestsStarted += 1 }
    }
    checkWaiters()
  }

  /// `WORKBOOK_TIMELINE=off` stops recording timelines, so `Scripts/repeat` can measure what they
  /// cost.
  private static let keepsTimeline =
    ProcessInfo.processInfo.environment["WORKBOOK_TIMELINE"] != "off"

  var events: [Event] {
    state.value.events
  }

  func checkWaiters() {
    let waiters = state.withLock { $0.waiters.map { ($0.key, $0.value.condition) } }
    for (id, condition) in waiters where condition() {
      resolveWaiter(id, satisfied: true)
    }
  }

  private func resolveWaiter(_ id: Int, satisfied: Bool) {
    guard let waiter = state.withLock({ $0.waiters.removeValue(forKey: id) }) else { return }
    waiter.timer?.cancel()
    waiter.continuation.resume(returning: satisfied)
  }

  private static func callerName(_ index: Int) -> String {
    let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    return index < letters.count ? String(letters[index]) : "#\(index + 1)"
  }
}

/// The executor the current task prefers, if it has a preference: a caller's stepped executor for
/// work within that caller.
func currentTaskExecutor() -> UnownedTaskExecutor? {
  withUnsafeCurrentTask { $0?.unownedTaskExecutor }
}
