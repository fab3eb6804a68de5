/// Which caller's work created each task whose jobs the scheduler runs, so that work in a
/// `Task.detached` is told apart by the caller who started it, and a task's first enqueue, the
/// one that starts it, is told from the later ones.
///
/// A detached task inherits no task-local value (SE-0311), so it does not carry its caller's name
/// (``CurrentCaller``). But the runtime enqueues a new task at once, from the code that creates
/// it, while that code's task is still the current one: the scheduler's enqueue runs inside the
/// creator's task, and can read the creator's name. Later enqueues of the same task come from
/// whoever resumes it, so only the first one counts. Tasks are told apart by the runtime's task
/// identifier, which the runtime hands out from a counter, rather than by their address, which
/// a new task may reuse.
///
/// A task's first enqueue here is not always its creation: a task that began on another executor,
/// such as the main actor's, may come here later. It moves here on its own, so it is the current
/// task when it is enqueued, and a creator is always older than the task it creates, since
/// identifiers count up: such an enqueue is not taken for a creation.
enum TaskCreators {
  /// What the thread that enqueues a task knows of its creation, if this is its first enqueue.
  struct Creation {
    /// The task's identifier.
    let id: UInt64
    /// Whether the current task, when it enqueued the task, was older than it, as its creator is.
    let byAnOlderTask: Bool
    /// The name the current task carried then, if it was older.
    let caller: String?
  }

  private struct Entry {
    /// The scenario whose work enqueued the task, if any: its entries go when it ends.
    let owner: Int?
    /// Whether it is the work of the world under test, rather than the test's own.
    let isWorld: Bool
    /// The name of the caller whose work created the task, or `nil`.
    let caller: String?
  }

  /// The tasks seen, and which of them each scenario's work enqueued, so that forgetting a
  /// scenario's tasks costs as many steps as it has tasks, however many other tasks are known.
  private struct Seen {
    var entries: [UInt64: Entry] = [:]
    var byOwner: [Int: [UInt64]] = [:]
  }

  /// Read and written only by the scheduler's threads, which run one job at a time: a lock that
  /// other threads never take orders nothing between their work and the jobs', and so hides no
  /// race between them from the Thread Sanitizer.
  private static let seen = Locked(Seen())

  /// What to remember of `job`'s task, should this be its first enqueue: call it from the
  /// scheduler's enqueue, on the thread that enqueues, and hand it to ``note(_:owner:)`` when the
  /// job is taken from the queue.
  static func creation(of job: UnownedJob) -> Creation? {
    guard let runtime else { return nil }
    let id = runtime.taskID(job)
    guard id != 0 else { return nil }
    let current = runtime.currentTask().map {
      runtime.taskID(unsafeBitCast($0, to: UnownedJob.self))
    }
    let byAnOlderTask = current.map { $0 < id } ?? false
    return Creation(
      id: id, byAnOlderTask: byAnOlderTask, caller: byAnOlderTask ? CurrentCaller.name : nil)
  }

  /// Remembers who created a task, if it is the first time the scheduler takes one of its jobs:
  /// a task can be enqueued again only after it has run, so its first job taken is the one its
  /// creation enqueued. Call it from one of the scheduler's threads.
  static func note(_ creation: Creation, owner: Int?, isWorld: Bool) {
    seen.withLock { seen in
      if seen.entries[creation.id] == nil {
        seen.entries[creation.id] = Entry(owner: owner, isWorld: isWorld, caller: creation.caller)
        if let owner { seen.byOwner[owner, default: []].append(creation.id) }
      }
    }
  }

  /// Whether `creation` describes a task's first enqueue, the one its creation makes: an older
  /// task enqueues it, and the scheduler has never taken one of its jobs. Call it from one of the
  /// scheduler's threads.
  static func isFirstEnqueue(_ creation: Creation) -> Bool {
    creation.byAnOlderTask && seen.withLock { $0.entries[creation.id] == nil }
  }

  /// The name of the caller whose work created the current task, if the current thread is one of
  /// the scheduler's, and a caller's work created the task.
  static var callerOfCurrentTask: String? {
    guard Scheduler.isRunner, let runtime, let task = runtime.currentTask() else {
      return nil
    }
    let id = runtime.taskID(unsafeBitCast(task, to: UnownedJob.self))
    return seen.withLock { $0.entries[id]?.caller }
  }

  /// The scenario whose world's work `creation`'s task is, if the scheduler has run it as such.
  /// Unlike the rest, it may be asked on any thread: it serves an enqueue from a thread that is not
  /// the scheduler's, which then takes the scheduler's own lock, so that asking orders nothing the
  /// enqueue did not.
  static func worldOwner(of creation: Creation) -> Int? {
    seen.withLock { seen in
      seen.entries[creation.id].flatMap { $0.isWorld ? $0.owner : nil }
    }
  }

  /// Forgets the tasks that scenario `owner`'s work enqueued, once it has ended, if the current
  /// thread is one of the scheduler's; on another thread they stay, a few bytes each.
  static func forget(owner: Int) {
    guard Scheduler.isRunner else { return }
    seen.withLock { seen in
      for id in seen.byOwner.removeValue(forKey: owner) ?? [] {
        seen.entries[id] = nil
      }
    }
  }

  private static var runtime: SwiftRuntime? { SwiftRuntime.current }
}
