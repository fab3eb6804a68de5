/// A group of callers started together by ``Scenario/start(_:_:_:)``.
public final class Callers<Value: Sendable>: Sendable {
  /// The callers' names, in the order they started.
  public let names: [String]
  let operation: String
  private let scenario: Scenario
  private let finished = Locked<[String: Result<Value, any Error>]>([:])

  init(names: [String], operation: String, scenario: Scenario) {
    self.names = names
    self.operation = operation
    self.scenario = scenario
  }

  /// Stops these callers where they are: whatever would resume them waits until ``release()``,
  /// so that another caller can run in the gap.
  public func hold() {
    scenario.recordTestStep("holds \(names.joined(separator: ", ")) back")
    for name in names {
      scenario.setHeld(true, name)
    }
  }

  /// Lets these callers run on until each next leaves the actor, and stops each there, as
  /// ``hold()`` does, until ``release()``: the actor is free meanwhile, as it is while another
  /// thread runs what the caller left it for. A caller leaves the actor to run nonisolated code,
  /// such as a `@concurrent` function or a service's method, to call another actor, to wait for
  /// a child task (`async let`, a task group), and to return; so a caller held there may have
  /// stepped off in the middle of its work, or finished it. A caller held already
  /// is let go until its next leaving, so that a test can follow it from step to step.
  public func holdWhenTheyLeaveTheActor() {
    let who = names.joined(separator: ", ")
    let held = scenario.callers.contains { names.contains($0.name) && $0.isHeld }
    let verb = names.count == 1 ? "it leaves" : "they leave"
    scenario.recordTestStep(
      held
        ? "lets \(who) go on until \(verb) the actor again"
        : "holds \(who) back as soon as \(verb) the actor")
    for name in names {
      scenario.holdWhenItLeavesTheActor(name)
    }
  }

  /// Lets callers held by ``hold()`` resume.
  public func release() {
    scenario.recordTestStep("lets \(names.joined(separator: ", ")) resume")
    for name in names {
      scenario.setHeld(false, name)
    }
  }

  /// Cancels the tasks of the named callers (all of them when `only` is empty), as a screen does
  /// when its user navigates away.
  public func cancel(_ only: String...) {
    let chosen = only.isEmpty ? names : only
    scenario.recordTestStep("cancels \(chosen.joined(separator: ", "))")
    for name in chosen {
      scenario.cancel(name)
    }
  }

  /// What cancels the named callers' tasks (all of them when `only` is empty), for another thread
  /// to run, as ``onOtherThreads(_:)`` does.
  ///
  /// The timeline records the cancellation now. The closure itself only cancels the tasks: were it
  /// to record anything, the lock that guards the timeline would order everything another thread
  /// did before it last recorded ahead of everything the cancelling thread does after, and the
  /// Thread Sanitizer would miss a race between those accesses.
  public func cancellation(_ only: String...) -> @Sendable () -> Void {
    let chosen = only.isEmpty ? names : only
    scenario.recordTestStep("cancels \(chosen.joined(separator: ", ")) on another thread")
    let cancellations = chosen.map { scenario.cancellation(of: $0) }
    return {
      for cancel in cancellations { cancel() }
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
    let ready = await scenario.wait {
      self.names.allSatisfy { self.scenario.queuedJobs(of: $0) > 0 }
    }
    guard ready else {
      throw Stalled(
        """
        Caller \(names.joined(separator: ", ")) was held back after its request finished, but \
        nothing was ready to resume it: it was not waiting for that request.
        """,
        in: scenario
      )
    }
  }

  /// Waits until each of these callers is held with work ready to go on, or has finished: after
  /// ``holdWhenTheyLeaveTheActor()``, until each has left the actor, or returned without leaving
  /// it (a caller whose call is isolated to that actor too).
  public func waitUntilHeldOrFinished() async throws {
    let done = await scenario.wait {
      self.names.allSatisfy { name in
        self.hasFinished(name)
          || (self.scenario.callers.contains { $0.name == name && $0.isHeld }
            && self.scenario.queuedJobs(of: name) > 0)
      }
    }
    guard done else {
      throw Stalled(
        """
        Caller \(names.joined(separator: ", ")) was to be held where it next left the actor, but \
        it neither left the actor nor returned: it waits for something that nothing will do.
        """,
        in: scenario
      )
    }
  }

  /// What each caller got, in the order they were started, once all of them have finished.
  ///
  /// If a caller can no longer finish, because nothing is left that could resume it, this throws
  /// at once, with what the caller was waiting for, instead of waiting for a clock.
  public func results() async throws -> [CallerResult<Value>] {
    let allFinished = await scenario.wait { self.allFinished }
    let finished = self.finished.value
    guard allFinished else {
      let waiting = names.filter { finished[$0] == nil }
      let who = waiting.count == 1 ? "Caller" : "Callers"
      throw Stalled(
        "\(who) \(waiting.joined(separator: ", ")) never returned from \(operation).",
        in: scenario
      )
    }
    return names.map { CallerResult(caller: $0, result: finished[$0]!) }
  }

  func finish(_ name: String, with result: Result<Value, any Error>) {
    finished.withLock { $0[name] = result }
  }
}

/// What one caller got back.
public struct CallerResult<Value: Sendable>: Sendable {
  /// The caller's name, such as `A`.
  public let caller: String
  /// What it returned or threw.
  public let result: Result<Value, any Error>

  /// What it returned, or `nil` if it threw.
  public var value: Value? {
    try? result.get()
  }

  /// What it threw, or `nil` if it returned.
  public var error: (any Error)? {
    if case .failure(let error) = result { error } else { nil }
  }
}
