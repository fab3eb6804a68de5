#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The entry points of the Swift runtime that the scheduler reads, looked up by name: the runtime
/// exports them, but no module declares them. Where one is missing, ``current`` is `nil`, and
/// what needs them (``TaskCreators``, ``ActorHops``) sees nothing.
struct SwiftRuntime {
  /// `swift_task_getCurrent`: the task running on this thread, if any. A task is its own job.
  let currentTask: @convention(thin) () -> UnsafeRawPointer?
  /// `swift_task_getJobTaskId`: a task's identifier, counting up from 1; 0 for a job that is not
  /// a task.
  let taskID: @convention(thin) (UnownedJob) -> UInt64
  /// `swift_task_getCurrentExecutor`: the executor the current code runs on, as two words; the
  /// first, its identity, is `nil` for the generic executor, which runs nonisolated code.
  let currentExecutor: @convention(thin) () -> (identity: UnsafeRawPointer?, kind: UInt)

  static let current: SwiftRuntime? = {
    let process = dlopen(nil, RTLD_NOW)
    guard let task = dlsym(process, "swift_task_getCurrent"),
      let taskID = dlsym(process, "swift_task_getJobTaskId"),
      let executor = dlsym(process, "swift_task_getCurrentExecutor")
    else { return nil }
    return SwiftRuntime(
      currentTask: unsafeBitCast(task, to: (@convention(thin) () -> UnsafeRawPointer?).self),
      taskID: unsafeBitCast(taskID, to: (@convention(thin) (UnownedJob) -> UInt64).self),
      currentExecutor: unsafeBitCast(
        executor,
        to: (@convention(thin) () -> (identity: UnsafeRawPointer?, kind: UInt)).self))
  }()
}
