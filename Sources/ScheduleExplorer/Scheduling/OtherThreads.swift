import Foundation
import Synchronization

/// Runs each of `bodies` on a thread of its own, all starting at the same moment, and returns once
/// every one of them has finished.
///
/// For code that other threads call in production: a completion handler that a legacy client
/// calls on its own thread, a cancellation handler, which runs on the cancelling thread when the
/// cancellation finds it installed, a socket's callback. On the scheduler's one thread such calls
/// can never overlap; here they can, so state they share with nothing ordering their accesses is
/// a data race, which the Thread Sanitizer (`Scripts/check-threads`) can report even in a run
/// where the calls did not overlap.
///
/// The bodies must not wait for the scheduler: they run beside it, not on it.
public func onOtherThreads(_ bodies: [@Sendable () -> Void]) async {
  await OtherThreads(bodies).finished()
}

/// Threads started together, each running one body, that a test can wait for later.
///
/// Unlike ``onOtherThreads(_:)``, starting them does not wait: the thread that starts them goes
/// on with what it was doing, such as the rest of an actor's job, while they run.
public final class OtherThreads: Sendable {
  private let left: Locked<(running: Int, waiting: [CheckedContinuation<Void, Never>])>
  private let ended: Ended

  /// Starts each of `bodies` on a thread of its own; they all begin at the same moment.
  public convenience init(_ bodies: [@Sendable () -> Void]) {
    self.init(bodies, begin: {}, end: {})
  }

  /// Starts each of `bodies` on a thread of its own, to act just before the scheduler runs the
  /// next job of the world under test, such as the actor's job that takes in an answer the caller
  /// of this has just handed back. Call it from a job of the world, one set of threads at a time.
  ///
  /// The scheduler takes that job from its queue, lets the threads go, and waits for them before
  /// it runs the job; nothing in that orders their work before the job's. So state that the job
  /// and the bodies share without synchronising is a data race that the Thread Sanitizer reports,
  /// whichever code came first, as it would if the two had run at the same moment on two threads.
  /// Work that the bodies start for the scheduler, such as a resumed continuation or a new task,
  /// runs after that job. If no such job begins within a second, the bodies run anyway.
  public static func beforeNextJob(_ bodies: [@Sendable () -> Void]) -> OtherThreads {
    let scheduler = Scheduler.shared
    let next = scheduler.worldJobsBegun.load(ordering: .relaxed) + 1
    scheduler.acting.store(bodies.count, ordering: .relaxed)
    scheduler.actingDuring.store(next, ordering: .relaxed)
    return OtherThreads(
      bodies,
      begin: { spinWithoutOrdering { scheduler.worldJobsBegun.load(ordering: .relaxed) >= next } },
      end: { scheduler.acting.subtract(1, ordering: .relaxed) })
  }

  private init(
    _ bodies: [@Sendable () -> Void], begin: @escaping @Sendable () -> Void,
    end: @escaping @Sendable () -> Void
  ) {
    left = Locked((bodies.count, []))
    ended = Ended(bodies.count)
    let start = StartingLine(runners: bodies.count)
    for body in bodies {
      let thread = Thread { [left, ended] in
        start.arriveAndWait()
        begin()
        body()
        end()
        ended.count.add(1, ordering: .relaxed)
        let waiting = left.withLock { left in
          left.running -= 1
          defer { if left.running == 0 { left.waiting = [] } }
          return left.running == 0 ? left.waiting : []
        }
        for continuation in waiting { continuation.resume() }
      }
      thread.name = "schedule explorer: other thread"
      thread.start()
    }
  }

  /// Blocks the calling thread until every body has finished, without ordering what it does next
  /// after what they did.
  ///
  /// Waiting for the bodies through a lock, or anything else that synchronises, would tell the
  /// Thread Sanitizer that their work comes first, and a race between the two sides would drop out
  /// of its report. This waits by watching a relaxed atomic counter, which orders nothing: what the
  /// job does after it stays unordered with what the bodies did. What the job did before it
  /// started them is ordered before them by the start of their threads. For a job that starts threads and must let them act
  /// before it goes on. Gives up after a second, so that a body that waits for the job cannot hang
  /// the test.
  public func waitWithoutOrdering() {
    spinWithoutOrdering { ended.count.load(ordering: .relaxed) >= ended.total }
  }

  /// Returns once every body has finished.
  public func finished() async {
    await withCheckedContinuation { continuation in
      let done = left.withLock { left in
        if left.running > 0 { left.waiting.append(continuation) }
        return left.running == 0
      }
      if done { continuation.resume() }
    }
  }
}

/// Blocks the calling thread until `done`, read through relaxed atomics only, holds, or for a
/// second at most.
///
/// A wait that takes a lock or a condition orders everything the other thread did before it
/// ahead of what this thread does next, and the Thread Sanitizer would then miss a race between
/// them; spinning on a relaxed atomic orders nothing.
public func spinWithoutOrdering(until done: () -> Bool) {
  let limit = ContinuousClock.now + .seconds(1)
  while !done(), ContinuousClock.now < limit {
    sched_yield()
  }
}

/// How many of the bodies have ended, counted without ordering anything.
private final class Ended: Sendable {
  let count = Atomic(0)
  let total: Int

  init(_ total: Int) {
    self.total = total
  }
}

/// Holds every runner back until all have arrived, then lets them go at once.
private final class StartingLine: @unchecked Sendable {
  private let condition = NSCondition()
  private var waiting: Int

  init(runners: Int) {
    waiting = runners
  }

  func arriveAndWait() {
    condition.lock()
    defer { condition.unlock() }
    waiting -= 1
    if waiting == 0 {
      condition.broadcast()
    } else {
      while waiting > 0 { condition.wait() }
    }
  }
}
