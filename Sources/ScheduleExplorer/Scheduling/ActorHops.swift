/// Tells when a caller's task leaves an actor for its lane: to run nonisolated code, such as a
/// `@concurrent` function or a service's method, or to return to a nonisolated caller.
///
/// A caller's task prefers its lane (SE-0417), so when it steps off an actor to run nonisolated
/// code, the runtime does not go on running it on the same thread: it enqueues the task on the
/// lane. Seen from the lane's enqueue, that is the task itself, enqueued while no task is current
/// (the runtime takes the task off the thread before it enqueues it elsewhere) and while the
/// thread still runs on the actor's executor. (Checked on Swift 6.3.1 on Linux by logging a task
/// executor's enqueues: calls from an actor into a `@concurrent` function and into a protocol's
/// `async` method, and returns from an actor's method to a nonisolated caller.)
///
/// A task that completes on an actor wakes its waiters the same way, with no task current, so a
/// task's enqueue is only its leaving when the enqueuing thread was running the lane's own work:
/// the scheduler's enqueue checks that, for the holds of ``Scheduler/holdWhenLeaving(_:letGo:_:)``.
enum ActorHops {
  /// Whether enqueuing `job` is a task leaving the actor that the thread runs on.
  static func isLeavingAnActor(_ job: UnownedJob) -> Bool {
    guard let runtime = SwiftRuntime.current, runtime.currentTask() == nil,
      runtime.taskID(job) != 0
    else { return false }
    return runtime.currentExecutor().identity != nil
  }
}
