import Foundation

/// Runs each of `bodies` on a thread of its own, all starting at the same moment, and returns once
/// every one of them has finished.
///
/// For code that other threads call in production: a completion handler that a legacy client
/// calls on its own thread, a cancellation handler that runs on the thread that cancels, a
/// socket's callback. On the scheduler's one thread such calls can never overlap; here they can,
/// so state they share without a lock is a data race that the Thread Sanitizer reports every run
/// (`swift test --sanitize=thread`), even in a run where the calls happen not to collide.
///
/// The bodies must not wait for the scheduler: they run beside it, not on it.
public func onOtherThreads(_ bodies: [@Sendable () -> Void]) async {
  let start = StartingLine(runners: bodies.count)
  await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
    let left = Locked(bodies.count)
    for body in bodies {
      let thread = Thread {
        start.arriveAndWait()
        body()
        if left.withLock({ left in
          left -= 1
          return left == 0
        }) {
          done.resume()
        }
      }
      thread.name = "workbook other thread"
      thread.start()
    }
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
