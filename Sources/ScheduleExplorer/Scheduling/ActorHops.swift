/// Tells when a caller's task leaves an actor while its lane's work runs there, so that the actor
/// is free for other calls until the task comes back.
///
/// A caller's task prefers its lane (SE-0417), and so do its child tasks and the actors it runs,
/// so each way off an actor shows as an enqueue on the lane, made while the thread still runs on
/// the actor's executor. (Checked on Swift 6.3.1 on Linux by logging a task executor's enqueues.)
/// - **To nonisolated code**, such as a `@concurrent` function, a service's method, or a
///   nonisolated caller the actor's method returns to: the runtime takes the task off the thread
///   and enqueues the task itself, while no task is current.
/// - **To another actor**, such as an audit log of its own: the runtime enqueues the other actor's
///   job, which is no task, while no task is current; the task runs in that job.
/// - **To a child task**, with `async let` or a task group: the child's first job is enqueued
///   while the caller's task is still current; the caller then waits for it off the actor.
///
/// A task that completes on an actor wakes its waiters the same way, with no task current, so an
/// enqueue is only a leaving when the enqueuing thread was running the lane's own work: the
/// scheduler's enqueue checks that, for the holds of ``Scheduler/holdWhenLeaving(_:letGo:_:)``
/// and ``Scheduler/watchLeavings(of:_:)``. And since holding a lane holds the jobs in it, a
/// caller is held on its way to another actor only where it leaves the first actor it left, the
/// one it called: on the way back, the job in its lane is that actor's own, and holding it would
/// hold everyone who calls it. What a leaving was for is only known once its job has run, which
/// the explorer waits for before it holds a caller there.
enum ActorHops {
  /// A way off an actor, seen as an enqueue on a caller's lane.
  struct Leaving {
    /// Whether the enqueued job is another actor's, which the caller's task runs in.
    let toAnotherActor: Bool
    /// The executor of the actor left, which identifies it.
    let from: UnsafeRawPointer
    /// The task that left, where the enqueued job is that task itself, taken off the thread:
    /// the caller's own task or one of its child tasks. `nil` for another actor's job, which
    /// does not say which task runs in it, and for a child task just created, on whose end the
    /// task that created it waits.
    let task: UInt64?
  }

  /// The way off the actor that the thread runs on, if enqueuing `job` is one.
  static func leaving(_ job: UnownedJob) -> Leaving? {
    guard let runtime = SwiftRuntime.current, let from = runtime.currentExecutor().identity
    else { return nil }
    let isTask = runtime.taskID(job) != 0
    let aTaskIsCurrent = runtime.currentTask() != nil
    // A task, or another actor's job, enqueued once the task has come off the thread; or a new
    // task enqueued by the task still running.
    guard !aTaskIsCurrent || isTask else { return nil }
    return Leaving(
      toAnotherActor: !isTask, from: from,
      task: isTask && !aTaskIsCurrent ? runtime.taskID(job) : nil)
  }
}
