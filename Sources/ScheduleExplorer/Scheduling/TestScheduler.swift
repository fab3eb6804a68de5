import Testing

/// Runs `body` with every job of the process that the runtime would give its global concurrent
/// executor sent to the test scheduler instead: one thread, one job at a time, in the order the
/// jobs were enqueued, except where a ``Scenario`` holds a caller or an ``Exploration`` picks
/// which ready task runs first.
///
/// Every ``Scenario`` is made inside it (or in a test with the ``Trait/testScheduler`` trait,
/// which calls it), since "nothing of this scenario can run" is a fact only while the scheduler
/// runs every job.
///
/// - What is taken over: the runtime's global enqueue hook, so every job bound for the global
///   executor: `Task {}` and `Task.detached` bodies, nonisolated async functions, default actors
///   that such tasks run. The main actor's jobs still run on the main queue, and a task that
///   prefers a task executor of its own (SE-0417) still runs there.
/// - While when: from the call until `body` returns or throws. The code after the call goes on
///   wherever the scheduler ran it.
/// - After it ends: the hook that was in place before is put back, so jobs enqueued from then on
///   go where they went before the call; jobs already queued on the scheduler, and the jobs of a
///   scenario's callers, which run in lanes of their own, still run on the scheduler's thread.
/// - It is process-wide: while it runs, the jobs of every other test running at the same time go
///   to the scheduler too. Calls may overlap or nest; the hook is put back when the last ends. A
///   test that blocks its thread then blocks the scheduler, so run the tests that use it one at a
///   time: `swift test --no-parallel`, or the `.serialized` trait on their suite, which keeps that
///   suite's own tests from running at once.
///
/// - Parameters:
///   - isolation: the actor that `body` runs on, by default the caller's.
///   - body: the test, or the part of it that drives scenarios.
public func withTestScheduler<Result>(
  isolation: isolated (any Actor)? = #isolation,
  _ body: () async throws -> Result
) async rethrows -> Result {
  Scheduler.shared.beginTakeover()
  defer { Scheduler.shared.endTakeover() }
  // Go on in a job of the scheduler's, unless the caller is isolated to an actor, whose own
  // executor runs what comes next.
  if isolation == nil { await goOnOnTheScheduler() }
  return try await body()
}

/// Moves the current task, which prefers no executor and is isolated to no actor, onto the
/// scheduler's thread, while the scheduler has taken the global executor over; otherwise there is
/// nowhere to go, and it returns at once.
///
/// A task that waits for a task the scheduler runs is resumed through the global enqueue hook,
/// so on the scheduler's thread; should that task end before this one waits, this one goes on
/// where it was, and tries again. `Task.yield()` would not do: on Swift 6.3.1 it hands its job to
/// the default global executor itself, not through the hook (`Task.currentExecutor`'s `enqueue`,
/// which goes to Dispatch), and a test went on on one of Dispatch's threads, beside the
/// scheduler's, racing it: a caller it started could run before the test started the next one.
func goOnOnTheScheduler() async {
  while !Scheduler.shared.isCurrentThread && Scheduler.isTakenOver {
    await Task.detached {}.value
  }
}

/// A trait that runs each test of a suite, or one test, inside ``withTestScheduler(isolation:_:)``.
///
/// ```swift
/// @Suite("A pool of one connection", .testScheduler, .serialized)
/// struct ConnectionPoolTests { … }
/// ```
public struct TestSchedulerTrait: SuiteTrait, TestTrait, TestScoping {
  /// It applies to every test of a suite it marks.
  public var isRecursive: Bool { true }

  /// Runs a test, not a whole suite, inside ``withTestScheduler(isolation:_:)``.
  public func provideScope(
    for test: Test,
    testCase: Test.Case?,
    performing function: @Sendable () async throws -> Void
  ) async throws {
    guard !test.isSuite else { return try await function() }
    try await withTestScheduler { try await function() }
  }
}

extension Trait where Self == TestSchedulerTrait {
  /// Runs every test it marks inside ``withTestScheduler(isolation:_:)``, the scope that every
  /// ``Scenario`` needs.
  public static var testScheduler: Self { Self() }
}
