import Foundation

/// Runs a group of callers one job at a time on a thread of its own, and can say when it has
/// nothing left to run.
///
/// A caller whose task prefers this executor (SE-0417) runs here, including while it is inside a
/// student's actor, until it suspends. "Idle" therefore means: every caller of the group has
/// either finished or is suspended at an `await`. Reading counts at that moment, instead of after
/// a sleep, is what makes a reentrancy test give the same verdict on every run.
final class SteppedExecutor: TaskExecutor, @unchecked Sendable {
  private enum RunState {
    /// Waiting for a job, or running one.
    case running
    /// Queueing jobs without running them, so the test can let others go first.
    case held
    /// Finished: the test is over; the thread runs what is queued and ends.
    case shutDown
  }

  private let condition = NSCondition()
  private var queue: [UnownedJob] = []
  private var isRunningJob = false
  private var jobsEnqueued = 0
  private var runState = RunState.running
  private let stateChanged: @Sendable () -> Void

  /// - Parameter stateChanged: called, without any lock held, whenever the executor may have
  ///   become idle or received a job.
  init(name: String, stateChanged: @escaping @Sendable () -> Void) {
    self.stateChanged = stateChanged
    // A task holds its executor preference unowned (SE-0417), and a task that has preferred this
    // executor may still hop back to it after its test is over. Such a hop into a freed executor
    // crashed about one run in two hundred under load, so these executors are never freed: each
    // keeps a reference to itself (a few hundred bytes per test; the thread ends at shutdown).
    _ = Unmanaged.passRetained(self)
    let thread = Thread { [self] in runJobs() }
    thread.name = name
    thread.start()
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    condition.lock()
    queue.append(job)
    jobsEnqueued += 1
    condition.signal()
    condition.unlock()
    stateChanged()
  }

  /// Nothing is running and nothing is waiting to run; a held executor counts as settled.
  var isSettled: Bool {
    condition.lock()
    defer { condition.unlock() }
    return runState == .held ? !isRunningJob : queue.isEmpty && !isRunningJob
  }

  /// How many jobs were ever enqueued; a change between two readings means work arrived.
  var enqueuedSoFar: Int {
    condition.lock()
    defer { condition.unlock() }
    return jobsEnqueued
  }

  /// How many jobs are queued, for example a held caller that is ready to resume.
  var queuedJobs: Int {
    condition.lock()
    defer { condition.unlock() }
    return queue.count
  }

  func hold() {
    setRunState(.held)
  }

  func release() {
    setRunState(.running)
  }

  func shutDown() {
    setRunState(.shutDown)
  }

  private func setRunState(_ newState: RunState) {
    condition.lock()
    if runState != .shutDown { runState = newState }
    condition.broadcast()
    condition.unlock()
    stateChanged()
  }

  private func runJobs() {
    while let job = nextJob() {
      job.runSynchronously(on: asUnownedTaskExecutor())
      condition.lock()
      isRunningJob = false
      condition.unlock()
      stateChanged()
    }
  }

  private func nextJob() -> UnownedJob? {
    condition.lock()
    defer { condition.unlock() }
    while runState == .held || (runState == .running && queue.isEmpty) {
      condition.wait()
    }
    // Once shut down, run what is already queued (a caller finishing as the test ends) and stop.
    guard !queue.isEmpty else { return nil }
    isRunningJob = true
    return queue.removeFirst()
  }
}
