import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs every job of the test process, one at a time and in the order they were enqueued, on one
/// thread of its own.
///
/// Two kinds of work reach it:
/// - a caller's own work, through the caller's ``Lane``, a task executor the caller's task prefers
///   (SE-0417), which its child tasks inherit; a lane can be held, to keep its caller in a gap;
/// - everything else: `Task {}` and `Task.detached` bodies, default actors run by such tasks, the
///   test functions themselves. The runtime hands this work to the global concurrent executor,
///   and the scheduler takes it over through the runtime's global enqueue hook.
///
/// With every job on one thread, "nothing of this scenario can run" is a fact the scheduler can
/// read, not a guess: see ``isSettled(_:)``. That is what lets a test decide what the network does
/// next only once the actor has done everything it can, on every run, whatever the machine's load.
final class Scheduler: @unchecked Sendable {
  /// The scheduler of this test process, installed the first time a scenario needs it.
  static let shared: Scheduler = {
    let scheduler = Scheduler()
    scheduler.takeOverTheGlobalExecutor()
    return scheduler
  }()

  private struct Entry {
    let job: UnownedJob
    /// The caller's lane, or `nil` for work from the global executor.
    let lane: Lane?
  }

  /// What the scheduler's thread is doing.
  private enum Activity {
    /// Waiting for a job it may run.
    case idle
    /// Running a job from the global executor.
    case runningGlobalWork
    /// Running a job of a caller's lane.
    case running(Lane)
  }

  private let condition = NSCondition()
  /// Every job not yet run, oldest first. A held lane's jobs keep their place in the queue.
  private var queue: [Entry] = []
  private var activity = Activity.idle
  private var thread: pthread_t?
  /// The scenarios to tell when the scheduler may have settled: each checks its waiters.
  private var scenarios: [ObjectIdentifier: WeakScenario] = [:]
  /// Where jobs from the global executor run: they have no lane, and this executor is never
  /// preferred by a task, so running them here changes no task's isolation or preference.
  private let globalWork = GlobalWork()

  private struct WeakScenario {
    weak var scenario: Scenario?
  }

  private init() {
    let thread = Thread { [self] in runJobs() }
    thread.name = "workbook scheduler"
    // Jobs of Swift Testing itself run here too; give them the stack a main thread would have.
    thread.stackSize = 8 << 20
    thread.start()
    let watchdog = Thread { [self] in watchTheClock() }
    watchdog.name = "workbook watchdog"
    watchdog.start()
  }

  // MARK: Work

  func enqueue(_ job: UnownedJob, on lane: Lane?) {
    condition.lock()
    queue.append(Entry(job: job, lane: lane))
    condition.signal()
    condition.unlock()
  }

  /// Holds or releases a lane: a held lane's jobs wait in the queue, and count as settled.
  func setHeld(_ held: Bool, _ lane: Lane) {
    condition.lock()
    lane.isHeld = held
    condition.signal()
    condition.unlock()
    notifyScenarios()
  }

  /// Whether nothing of `scenario` can run: no job of its lanes is queued or running, except
  /// those of held lanes, and no work from the global executor is queued or running.
  ///
  /// Work from the global executor cannot be told apart by scenario, so any of it counts. Every
  /// test suspends sooner or later, so that moment always comes; it only means a scenario may
  /// wait for another test's job to end, never that it misses one of its own.
  func isSettled(_ scenario: ObjectIdentifier) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    switch activity {
    case .idle: break
    case .runningGlobalWork: return false
    case .running(let lane): if lane.scenario == scenario { return false }
    }
    return !queue.contains { entry in
      guard let lane = entry.lane else { return true }
      return lane.scenario == scenario && !lane.isHeld
    }
  }

  /// How many jobs of `lane` wait to run, for example a held caller that is ready to resume.
  func queuedJobs(on lane: Lane) -> Int {
    condition.lock()
    defer { condition.unlock() }
    return queue.count { $0.lane === lane }
  }

  /// Whether the current code runs on the scheduler's thread.
  var isCurrentThread: Bool {
    condition.lock()
    defer { condition.unlock() }
    return thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false
  }

  // MARK: Scenarios

  func register(_ scenario: Scenario) {
    condition.lock()
    scenarios[ObjectIdentifier(scenario)] = WeakScenario(scenario: scenario)
    condition.unlock()
  }

  func unregister(_ scenario: ObjectIdentifier) {
    condition.lock()
    scenarios[scenario] = nil
    condition.unlock()
  }

  /// Lets the scenarios that may just have settled check their waits. While work from the global
  /// executor is waiting to run, no scenario can have settled, and the checks are skipped.
  private func notifyScenarios() {
    condition.lock()
    let globalWorkWaits = queue.contains { $0.lane == nil }
    let live = globalWorkWaits ? [] : scenarios.values.compactMap(\.scenario)
    condition.unlock()
    for scenario in live {
      scenario.checkWaiters(betweenJobs: true)
    }
  }

  /// Ends, a few times a second, the waits that have passed their scenario's time limit: the
  /// backstop for a run that stopped making progress.
  private func watchTheClock() {
    while true {
      Thread.sleep(forTimeInterval: 0.1)
      condition.lock()
      let live = scenarios.values.compactMap(\.scenario)
      condition.unlock()
      let now = ContinuousClock.now
      for scenario in live {
        scenario.expireWaiters(at: now)
      }
    }
  }

  // MARK: The thread

  private func runJobs() {
    condition.lock()
    thread = pthread_self()
    condition.unlock()
    while true {
      let entry = nextEntry()
      if let lane = entry.lane {
        entry.job.runSynchronously(on: lane.asUnownedTaskExecutor())
      } else {
        entry.job.runSynchronously(on: globalWork.asUnownedTaskExecutor())
      }
      condition.lock()
      activity = .idle
      condition.unlock()
      notifyScenarios()
    }
  }

  private func nextEntry() -> Entry {
    condition.lock()
    defer { condition.unlock() }
    while true {
      if let index = queue.firstIndex(where: { !($0.lane?.isHeld ?? false) }) {
        let entry = queue.remove(at: index)
        activity = entry.lane.map { .running($0) } ?? .runningGlobalWork
        return entry
      }
      condition.wait()
    }
  }

  // MARK: The global executor

  private typealias GlobalEnqueue = @convention(thin) (UnownedJob) -> Void
  private typealias GlobalEnqueueHook = @convention(thin) (UnownedJob, GlobalEnqueue) -> Void

  /// Sends every job that the runtime would give the global concurrent executor to this
  /// scheduler instead.
  ///
  /// The Swift runtime exports `swift_task_enqueueGlobal_hook` for exactly this: a test tool that
  /// wants to own the global executor sets it, and the runtime calls it instead of enqueueing a
  /// job on its thread pool. It is how the schedulers of several Swift testing libraries work.
  private func takeOverTheGlobalExecutor() {
    guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "swift_task_enqueueGlobal_hook") else {
      fatalError(
        "This Swift runtime has no swift_task_enqueueGlobal_hook; the workbook's tests need it.")
    }
    symbol.assumingMemoryBound(to: GlobalEnqueueHook?.self).pointee = { job, _ in
      Scheduler.shared.enqueue(job, on: nil)
    }
  }
}

/// Where the scheduler runs jobs that came from the global executor.
private final class GlobalWork: TaskExecutor, @unchecked Sendable {
  func enqueue(_ job: consuming ExecutorJob) {
    Scheduler.shared.enqueue(UnownedJob(job), on: nil)
  }
}

/// One caller's own work: a task executor that the caller's task prefers, so that its jobs, and
/// those of its child tasks, wait in the scheduler's queue under the caller's name.
///
/// A task holds its executor preference unowned (SE-0417), and a task may still hop back to its
/// lane after its test has ended, so lanes are never freed: each keeps a reference to itself. A
/// lane is a few dozen bytes and owns no thread.
final class Lane: TaskExecutor, @unchecked Sendable {
  /// The scenario whose caller this lane runs.
  let scenario: ObjectIdentifier
  /// Guarded by the scheduler's lock.
  var isHeld = false

  init(for scenario: ObjectIdentifier) {
    self.scenario = scenario
    _ = Unmanaged.passRetained(self)
  }

  func enqueue(_ job: consuming ExecutorJob) {
    Scheduler.shared.enqueue(UnownedJob(job), on: self)
  }
}
