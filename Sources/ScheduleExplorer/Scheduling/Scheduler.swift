import Foundation
import Synchronization

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
/// The runtime's global executor is taken over only while ``withTestScheduler(isolation:_:)`` (or a
/// test with the ``Trait/testScheduler`` trait) runs; see ``beginTakeover()``.
///
/// Every job has an owner: the scenario whose work enqueued it. A job that a scenario's job
/// enqueues, a caller's continuation that its test resumes, a `Task {}` that its actor creates, all
/// belong to that scenario; work enqueued from nowhere in particular belongs to nobody. With every
/// job on one thread, "nothing of this scenario can run" is a fact the scheduler can read, not a
/// guess: see ``isSettled(_:)``; and another test's busy work never delays it. That is what lets a test decide what the network does
/// next only once the actor has done everything it can, on every run, whatever the machine's load.
final class Scheduler: @unchecked Sendable {
  /// The scheduler of this test process, whose threads start the first time it is needed.
  static let shared = Scheduler()

  private struct Entry {
    let job: UnownedJob
    /// The caller's lane, or `nil` for work from the global executor.
    let lane: Lane?
    /// The scenario whose work this is, or `nil` for work of nobody's (Swift Testing's own).
    let owner: Int?
    /// Whether it is the work of the world under test (a caller's, or a task that the world's
    /// work started), rather than the test's own, which merely waits for that work.
    let isWorld: Bool
    /// For a task started from outside the actor's jobs that the explorer holds back, its number
    /// (see ``setLateTasks(for:_:)``): it waits in the queue, and counts as settled, until let go.
    var heldAs: Int?
    /// For a task's job from the global executor, who may have created the task (see
    /// ``TaskCreators``).
    let creation: TaskCreators.Creation?
    /// For a caller's task that this job runs after it left an actor, which of the lane's
    /// leavings that was, counting from 1 (see ``watchLeavings(of:_:)``).
    var leaving: Int? = nil
  }

  /// What the scheduler is doing. Only one job runs at a time, whichever thread runs it.
  private enum Activity {
    /// Waiting for a job it may run.
    case idle
    /// Running a job of the scenario it names, or of nobody's, since the moment given.
    case running(owner: Int?, since: ContinuousClock.Instant)

    var isRunning: Bool {
      if case .running = self { true } else { false }
    }
  }

  private let condition = NSCondition()
  /// Every job not yet run, oldest first. A held lane's jobs keep their place in the queue.
  private var queue: [Entry] = []
  private var activity = Activity.idle
  /// Jobs stopped inside synchronous work by ``park(_:)``, each waiting on its own thread.
  private var parked: [Parked] = []
  private var nextParkedID = 0
  /// Threads that run jobs and are waiting for one: a job that parks needs one to go on.
  private var idleRunners = 0
  /// The scenarios to tell when the scheduler may have settled: each checks its waiters.
  private var scenarios: [Int: WeakScenario] = [:]
  /// Scenarios whose waits began during the job running now, to check when it ends.
  private var pendingChecks: Set<Int> = []
  /// Scenarios some of whose work ran where the scheduler could not see it (see
  /// ``noteWorkOutside(_:)``).
  private var ranOutside: Set<Int> = []
  /// How long the thread has spent on each scenario's jobs, while it lives.
  private var busy: [Int: Duration] = [:]
  /// How long the thread has spent on every job, of any scenario or of nobody's.
  private var allBusy = Duration.zero
  /// How many jobs of each scenario have begun, while it lives.
  private var jobsBegun: [Int: Int] = [:]
  /// For each scenario that explores the order of ready tasks, what picks the next one; see
  /// ``setTaskOrder(for:_:)``.
  private var taskOrders: [Int: TaskOrder] = [:]
  /// For each scenario that may hold back a task started from outside the actor's jobs, what
  /// decides whether to; see ``setLateTasks(for:_:)``.
  private var lateTasks: [Int: LateTask] = [:]
  /// For each scenario that may hold a caller where it leaves an actor, what decides whether to;
  /// see ``watchLeavings(of:_:)``.
  private var leavingWatches: [Int: LeavingWatch] = [:]
  /// How many jobs of the world under test have begun, counted without ordering anything, so that
  /// other threads can act just before one of them runs (``OtherThreads/beforeNextJob(_:)``).
  let worldJobsBegun = Atomic(0)
  /// The number of the world's job before which other threads act, or 0, and how many of them
  /// have not finished: the scheduler waits for them before it runs that job.
  let actingDuring = Atomic(0)
  let acting = Atomic(0)
  /// Where jobs from the global executor run: they have no lane, and this executor is never
  /// preferred by a task, so running them here changes no task's isolation or preference.
  private let globalWork = GlobalWork()

  /// A job stopped in the middle, on its thread, while a held caller's lane is held.
  private struct Parked {
    let id: Int
    let lane: Lane
  }

  private struct WeakScenario {
    weak var scenario: Scenario?
  }

  private init() {
    startRunner()
    let watchdog = Thread { [self] in watchTheClock() }
    watchdog.name = "schedule explorer: watchdog"
    watchdog.start()
  }

  // MARK: Work

  func enqueue(_ job: UnownedJob, on lane: Lane?) {
    let owner = lane?.scenario ?? Self.currentOwner
    let isWorld = lane != nil || (owner != nil && Self.doingTheWorldsWork)
    let creation = TaskCreators.creation(of: job)
    if owner == nil, lane == nil, !Self.isRunner, let creation { noteWorkOutside(creation) }
    // A task that completes on an actor wakes its waiters just as a task leaving the actor
    // enqueues itself; on the scheduler's threads, only a task leaving work of its own lane
    // counts.
    let hop =
      lane.map { Self.isRunner ? Self.runningLane == Self.address(of: $0) : true } ?? false
      ? ActorHops.leaving(job) : nil
    var heldAs: Int?
    if isWorld, let owner, let start = Self.start(of: creation, on: lane, owner: owner) {
      condition.lock()
      let late = lateTasks[owner]
      condition.unlock()
      heldAs = late?(start)
    }
    // Which of its lane's leavings this is, and, where no scripted hold waits for it, whether the
    // scenario's watch holds the lane here; the watch is asked outside the lock.
    var leavingNumber: Int?
    var watch: LeavingWatch?
    if let hop, let lane {
      condition.lock()
      if lane.home == nil { lane.home = hop.from }
      // Another actor's job enqueued on the way back to the actor the caller called is that
      // actor's own: not a leaving (see ``ActorHops``). Nor is a child task's own leaving of an
      // actor: the caller is not held for it (see ``ExplorationBounds/holdsOffTheActor``).
      if (!hop.toAnotherActor || lane.home == hop.from)
        && (hop.task == nil || hop.task == lane.caller)
      {
        lane.leavings += 1
        leavingNumber = lane.leavings
        if lane.holdWhenLeaving == nil { watch = leavingWatches[lane.scenario] }
      }
      condition.unlock()
    }
    let leaving = leavingNumber != nil
    var holdsHere = false
    if let watch, let lane, let leavingNumber { holdsHere = watch.hold(lane, leavingNumber) }
    condition.lock()
    queue.append(
      Entry(
        job: job, lane: lane, owner: owner, isWorld: isWorld, heldAs: heldAs, creation: creation,
        leaving: leavingNumber))
    // A lane's first task is its caller's own: the scenario starts it there.
    if let lane, lane.caller == nil, let creation { lane.caller = creation.id }
    var justLeft: (@Sendable () -> Void)?
    if holdsHere, let lane { lane.isHeld = true }
    if leaving, let lane, let left = lane.holdWhenLeaving {
      lane.isHeld = true
      lane.holdWhenLeaving = nil
      justLeft = left
    }
    condition.broadcast()
    let held = lane?.isHeld ?? false
    condition.unlock()
    justLeft?()
    // A held caller just became ready to resume: a wait for that, perhaps begun by work the
    // scheduler cannot see (the main actor's), can end now.
    if held, let lane { notify(lane.scenario) }
  }

  /// Says, once in its timeline, that a task of a scenario's world came back from a thread that
  /// is neither the scheduler's nor one taking a step of a scenario: what the task did last ran
  /// where the scheduler neither sees nor orders it. On Swift 6.3.1 `Task.yield()` in a task that
  /// prefers no executor, away from any actor, hands its job to the default global executor
  /// itself, past the global enqueue hook; the scheduler cannot bring such work back.
  private func noteWorkOutside(_ creation: TaskCreators.Creation) {
    guard let owner = TaskCreators.worldOwner(of: creation) else { return }
    condition.lock()
    let first = ranOutside.insert(owner).inserted
    let scenario = scenarios[owner]?.scenario
    condition.unlock()
    if first { scenario?.recordWorkOutsideTheScheduler() }
  }

  /// Who is starting the task that `creation` describes, if this enqueue starts a task of
  /// scenario `owner` that may start late (see ``setLateTasks(for:_:)``).
  private static func start(
    of creation: TaskCreators.Creation?, on lane: Lane?, owner: Int
  ) -> LateStart? {
    if lane == nil, eventOfTheWorld == owner { return .worldEvent }
    // A job or a step of the world's, running on this thread, creates a task that runs in no
    // caller's lane: its first enqueue. (A task in a lane is a caller's own work, which holds
    // reach.) The thread need not be the scheduler's: a step of the world's that a test takes
    // through a fake, such as `deliverNext()`, runs on whatever thread runs the test, and a task
    // that its callback starts must be held back all the same.
    if lane == nil, doingTheWorldsWork, currentOwner == owner, let creation,
      TaskCreators.isFirstEnqueue(creation)
    {
      return .theActor
    }
    return nil
  }

  // MARK: Owners

  private static let ownerKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()

  /// The scenario whose work the current thread is doing: the owner of the job it runs, or of the
  /// step a test takes through ``withOwner(_:_:)``. Jobs enqueued now belong to it.
  static var currentOwner: Int? {
    get { pthread_getspecific(ownerKey).map { Int(bitPattern: $0) } }
    set { pthread_setspecific(ownerKey, newValue.flatMap { UnsafeRawPointer(bitPattern: $0) }) }
  }

  private static let worldKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()

  /// Whether the current thread does the world's work (see ``Entry/isWorld``).
  static var doingTheWorldsWork: Bool {
    get { pthread_getspecific(worldKey) != nil }
    set { pthread_setspecific(worldKey, newValue ? UnsafeRawPointer(bitPattern: 1) : nil) }
  }

  /// Runs `body` as work of scenario `owner`: whatever it resumes or starts belongs to that
  /// scenario, as the world's work, or, with `asTest`, as the test's own (a test resuming after a
  /// wait).
  static func withOwner<Result>(
    _ owner: Int, asTest: Bool = false, _ body: () throws -> Result
  ) rethrows -> Result {
    let previous = (currentOwner, doingTheWorldsWork)
    currentOwner = owner
    doingTheWorldsWork = !asTest
    defer { (currentOwner, doingTheWorldsWork) = previous }
    return try body()
  }

  private static let eventKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()

  /// The scenario whose world event (a cancellation, an answer, a step of the world's own) the
  /// current thread is making happen, from outside the actor's jobs: a task started now, by a
  /// cancellation handler or a callback, is one ``setLateTasks(for:_:)`` may hold back.
  static var eventOfTheWorld: Int? {
    get { pthread_getspecific(eventKey).map { Int(bitPattern: $0) } }
    set { pthread_setspecific(eventKey, newValue.flatMap { UnsafeRawPointer(bitPattern: $0) }) }
  }

  /// Runs `body`, a world event of scenario `owner` made from outside the actor's jobs; see
  /// ``eventOfTheWorld``.
  static func asEventOfTheWorld<Result>(_ owner: Int, _ body: () -> Result) -> Result {
    let previous = eventOfTheWorld
    eventOfTheWorld = owner
    defer { eventOfTheWorld = previous }
    return body()
  }

  /// Holds or releases a lane: a held lane's jobs wait in the queue, and count as settled.
  func setHeld(_ held: Bool, _ lane: Lane) {
    condition.lock()
    lane.isHeld = held
    condition.broadcast()
    condition.unlock()
    notify(lane.scenario)
  }

  /// Holds `lane` the next time its caller's task leaves an actor (see ``ActorHops``), and then
  /// calls `held`, on the thread that enqueues the task, outside the scheduler's lock; `nil`
  /// stops waiting for that. With `letGo`, a held lane is let go in the same step, so that none
  /// of its jobs runs before the hold is in place.
  ///
  /// Only the caller's own task waits then, not the actor: the actor's job, which a task coming
  /// back to it may enqueue on the task's lane, runs the other callers waiting for the actor too,
  /// so a hold on the way back would hold them all.
  func holdWhenLeaving(_ lane: Lane, letGo: Bool = false, _ held: (@Sendable () -> Void)?) {
    condition.lock()
    lane.holdWhenLeaving = held
    if letGo { lane.isHeld = false }
    condition.broadcast()
    condition.unlock()
    if letGo { notify(lane.scenario) }
  }

  /// How many times the task of `lane`'s caller has left an actor (see ``ActorHops``).
  func leavings(of lane: Lane) -> Int {
    condition.lock()
    defer { condition.unlock() }
    return lane.leavings
  }

  /// Whether nothing of `scenario` can run: no job of its is queued or running, except those of
  /// held lanes.
  func isSettled(_ scenario: Int) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    if case .running(let owner, _) = activity, owner == scenario { return false }
    if parked.contains(where: { $0.lane.scenario == scenario && !$0.lane.isHeld }) { return false }
    return !queue.contains { entry in
      entry.owner == scenario && !(entry.lane?.isHeld ?? false) && entry.heldAs == nil
    }
  }

  /// How many jobs of `lane` wait to run, for example a held caller that is ready to resume.
  func queuedJobs(on lane: Lane) -> Int {
    condition.lock()
    defer { condition.unlock() }
    return queue.count { $0.lane === lane }
  }

  /// Whether the current code runs on one of the scheduler's threads: in a job it runs.
  var isCurrentThread: Bool {
    Self.isRunner
  }

  private static let runnerKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()

  private static let runningLaneKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()

  /// The lane of the job that this thread, one of the scheduler's, is running, if it has one.
  private static var runningLane: UnsafeRawPointer? {
    get { pthread_getspecific(runningLaneKey).map { UnsafeRawPointer($0) } }
    set { pthread_setspecific(runningLaneKey, newValue) }
  }

  private static func address(of lane: Lane) -> UnsafeRawPointer {
    UnsafeRawPointer(Unmanaged.passUnretained(lane).toOpaque())
  }

  static var isRunner: Bool {
    get { pthread_getspecific(runnerKey) != nil }
    set { pthread_setspecific(runnerKey, newValue ? UnsafeRawPointer(bitPattern: 1) : nil) }
  }

  // MARK: Holding a caller inside synchronous work

  /// Stops the job running now, in the middle, for as long as `lane` is held: the other jobs run
  /// meanwhile, as they would on another thread, and the job counts as held, like a held lane's.
  ///
  /// Jobs still run one at a time: this thread gives up its turn and another of the scheduler's
  /// threads takes the queue over until the lane is let go and that thread's job has ended; then
  /// this job goes on where it stopped. So every run of a schedule stays the same run. Call it only
  /// from a job the scheduler runs, from synchronous code that a fake provides, such as a decoder.
  ///
  /// - Returns: whether the job was stopped at all (the lane was held).
  @discardableResult
  func park(_ lane: Lane) -> Bool {
    precondition(Self.isRunner, "park(_:) is called from a job the scheduler runs")
    condition.lock()
    guard lane.isHeld else {
      condition.unlock()
      return false
    }
    let id = nextParkedID
    nextParkedID += 1
    parked.append(Parked(id: id, lane: lane))
    activity = .idle
    if idleRunners == 0 { startRunner() }
    condition.broadcast()
    condition.unlock()
    let owner = Self.currentOwner
    notify(lane.scenario)
    let stopped = ContinuousClock.now
    condition.lock()
    // Go on only once the lane is let go and no other job is running.
    while lane.isHeld || activity.isRunning {
      condition.wait()
    }
    parked.removeAll { $0.id == id }
    activity = .running(owner: owner, since: .now)
    pausedFor += ContinuousClock.now - stopped
    condition.unlock()
    return true
  }

  /// How many jobs of `lane` are stopped inside their work by ``park(_:)``.
  func parkedJobs(on lane: Lane) -> Int {
    condition.lock()
    defer { condition.unlock() }
    return parked.count { $0.lane === lane }
  }

  /// Whether a stopped job may go on: its lane was let go.
  private var aParkedJobMayGoOn: Bool {
    parked.contains { !$0.lane.isHeld }
  }

  /// How long the job running on this thread spent stopped, which is not time spent on it.
  private var pausedFor: Duration {
    get { Self.pausedKey.value }
    set { Self.pausedKey.value = newValue }
  }

  private static let pausedKey = ThreadDuration()

  private func startRunner() {
    let thread = Thread { [self] in runJobs() }
    thread.name = "schedule explorer: scheduler"
    // Jobs of Swift Testing itself run here too; give them the stack a main thread would have.
    thread.stackSize = 8 << 20
    thread.start()
  }

  // MARK: Scenarios

  func register(_ scenario: Scenario) {
    condition.lock()
    scenarios[scenario.id] = WeakScenario(scenario: scenario)
    condition.unlock()
  }

  func unregister(_ scenario: Int) {
    condition.lock()
    scenarios[scenario] = nil
    busy[scenario] = nil
    jobsBegun[scenario] = nil
    taskOrders[scenario] = nil
    lateTasks[scenario] = nil
    leavingWatches[scenario] = nil
    ranOutside.remove(scenario)
    condition.unlock()
    TaskCreators.forget(owner: scenario)
  }

  /// Picks which of several ready jobs runs first: given how many there are, in the order they
  /// became ready, it answers the index of the one to run, and what to do just before it runs
  /// (such as recording the pick in the timeline), which may use the scheduler.
  typealias TaskOrder = @Sendable (_ ready: Int) -> (index: Int, before: (@Sendable () -> Void)?)

  /// Lets `order` choose, whenever several jobs of scenario `id` from the global executor are
  /// ready at once, which of them runs first.
  ///
  /// Those jobs belong to tasks the world's work started outside the callers' lanes: `Task {}`
  /// bodies and the actors they run; never the test's own task. On the runtime's own executor they run on a pool of threads, so they may
  /// start in any order, whatever order they were created in; without an order, the scheduler
  /// runs them oldest first. A caller's own jobs are never reordered here: the explorer orders
  /// callers by holding their lanes. `order` is called with the scheduler's lock held, so it must
  /// not call the scheduler; the closure it hands back runs once the lock is released.
  func setTaskOrder(for id: Int, _ order: TaskOrder?) {
    condition.lock()
    taskOrders[id] = order
    condition.unlock()
  }

  /// Decides, for each task that scenario `id` starts, whether it is held back: the number to hold
  /// it as, or `nil` to let it run when it is ready. It is asked about the tasks started from
  /// outside the actor's jobs while the scenario makes a world event happen
  /// (``asEventOfTheWorld(_:_:)``), and about those that the world's own jobs create: `Task {}`,
  /// `Task.detached`, `async let` and task group children.
  ///
  /// On the runtime's own executor such a task, like any, starts whenever the runtime gets to it,
  /// which may be after the actor has taken other calls. Held, it waits in the queue and counts
  /// as settled until ``letLateTaskRun(_:of:)``. `late` is called outside the scheduler's lock,
  /// on the thread that starts the task.
  typealias LateTask = @Sendable (_ startedBy: LateStart) -> Int?

  /// What starts a task that may start late.
  enum LateStart {
    /// A world event made from outside the actor's jobs, such as a cancellation or a callback.
    case worldEvent
    /// A job of the world's own: the actor, or a task it started.
    case theActor
  }

  func setLateTasks(for id: Int, _ late: LateTask?) {
    condition.lock()
    lateTasks[id] = late
    condition.unlock()
  }

  /// What decides where scenario `id`'s callers are held as they leave an actor (see
  /// ``ActorHops``), and learns what each leaving was for.
  struct LeavingWatch: Sendable {
    /// Asked at each leaving of a caller's task that no scripted hold waits for
    /// (``holdWhenLeaving(_:letGo:_:)``), with the lane and which of its leavings this is,
    /// counting from 1: whether the lane is held there. It is called outside the scheduler's lock,
    /// on the thread that enqueues the task, before the task's job is queued.
    let hold: @Sendable (_ lane: Lane, _ leaving: Int) -> Bool
    /// Told, on the scheduler's thread, once the job that a leaving enqueued has run: what the
    /// task did off the actor, such as making a request, returning, or coming back to the actor,
    /// has happened by then.
    let ran: @Sendable (_ lane: Lane, _ leaving: Int) -> Void
  }

  /// Lets `watch` decide where scenario `id`'s callers are held as they leave an actor, or, with
  /// `nil`, stops it.
  func watchLeavings(of id: Int, _ watch: LeavingWatch?) {
    condition.lock()
    leavingWatches[id] = watch
    condition.unlock()
  }

  /// Whether a held caller of scenario `id` waits to enter another actor: the job held in its
  /// lane is that actor's, which runs the caller's task, so whoever else calls that actor waits
  /// until the caller is let go, a check of the promise included.
  func holdsAnActor(of id: Int) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    return queue.contains { entry in
      entry.owner == id && (entry.lane?.isHeld ?? false) && entry.creation == nil
    }
  }

  /// The numbers of scenario `id`'s tasks held back and not yet let go, in the order they were
  /// held.
  func heldLateTasks(of id: Int) -> [Int] {
    condition.lock()
    defer { condition.unlock() }
    return queue.compactMap { $0.owner == id ? $0.heldAs : nil }
  }

  /// Lets scenario `id`'s task held back as `number` run, in its place in the queue.
  func letLateTaskRun(_ number: Int, of id: Int) {
    condition.lock()
    if let index = queue.firstIndex(where: { $0.owner == id && $0.heldAs == number }) {
      queue[index].heldAs = nil
    }
    condition.broadcast()
    condition.unlock()
    notify(id)
  }

  /// How long the thread has spent on jobs other than scenario `id`'s, since it started.
  func busyTime(ofAllBut id: Int) -> Duration {
    condition.lock()
    defer { condition.unlock() }
    // A job still running counts as it goes: one that blocks its thread for a while, as a test
    // waiting for a process of its own does, holds up every other scenario meanwhile.
    var running = Duration.zero
    if case .running(let owner, let since) = activity, owner != id {
      running = .now - since
    }
    return allBusy - busy[id, default: .zero] + running
  }

  /// How long the thread has spent running scenario `id`'s jobs so far: its share of the thread,
  /// whatever other tests ran in between.
  func busyTime(of id: Int) -> Duration {
    condition.lock()
    defer { condition.unlock() }
    return busy[id, default: .zero]
  }

  /// How many jobs of scenario `id` have begun so far, the one running now included.
  func jobsBegun(of id: Int) -> Int {
    condition.lock()
    defer { condition.unlock() }
    return jobsBegun[id, default: 0]
  }

  /// Asks for scenario `id`'s waits to be checked once the job running now has ended, because
  /// that job began a wait of the scenario's.
  func checkAfterThisJob(_ id: Int) {
    condition.lock()
    pendingChecks.insert(id)
    condition.unlock()
  }

  /// Lets scenario `owner`, whose job just ended, check its waits (only its own jobs can have
  /// settled it), and every scenario that began a wait during that job.
  private func notify(_ owner: Int?) {
    condition.lock()
    // Nearly every job ends with nobody else to tell: then the job's own scenario is the one to
    // check, without building a set and a list for it after each job.
    if pendingChecks.isEmpty {
      let scenario = owner.flatMap { scenarios[$0]?.scenario }
      condition.unlock()
      scenario?.checkWaiters(betweenJobs: true)
      return
    }
    var owners = pendingChecks
    pendingChecks = []
    if let owner { owners.insert(owner) }
    let live = owners.sorted().compactMap { scenarios[$0]?.scenario }
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
    Self.isRunner = true
    while let (entry, before) = nextEntry() {
      let taken = ContinuousClock.now
      Self.currentOwner = entry.owner
      Self.doingTheWorldsWork = entry.isWorld
      before?()
      pausedFor = .zero
      let number = entry.isWorld ? worldJobsBegun.add(1, ordering: .relaxed).newValue : 0
      // Threads that act just before this job (OtherThreads.duringNextJob) finish first, and the
      // wait orders nothing: what they did stays unordered with what the job does.
      if number != 0, actingDuring.load(ordering: .relaxed) == number {
        spinWithoutOrdering { acting.load(ordering: .relaxed) == 0 }
        actingDuring.store(0, ordering: .relaxed)
      }
      Self.runningLane = entry.lane.map(Self.address(of:))
      if let lane = entry.lane {
        entry.job.runSynchronously(on: lane.asUnownedTaskExecutor())
      } else {
        entry.job.runSynchronously(on: globalWork.asUnownedTaskExecutor())
      }
      Self.runningLane = nil
      Self.currentOwner = nil
      Self.doingTheWorldsWork = false
      if let number = entry.leaving, let lane = entry.lane {
        condition.lock()
        let watch = leavingWatches[lane.scenario]
        condition.unlock()
        watch?.ran(lane, number)
      }
      condition.lock()
      activity = .idle
      condition.broadcast()
      condition.unlock()
      notify(entry.owner)
      // The job's share of the thread: the job, and the work around it, such as checking whether
      // it settled its scenario, in which no other job could run either.
      let share = ContinuousClock.now - taken - pausedFor
      condition.lock()
      if let owner = entry.owner { busy[owner, default: .zero] += share }
      allBusy += share
      condition.unlock()
    }
  }

  /// The next job to run, or `nil` when another runner already waits for one: this one, back
  /// from a job that parked, ends. One waiting runner is enough, and every runner that waits
  /// wakes whenever a job ends.
  private func nextEntry() -> (Entry, before: (@Sendable () -> Void)?)? {
    condition.lock()
    defer { condition.unlock() }
    if idleRunners > 0 { return nil }
    idleRunners += 1
    defer { idleRunners -= 1 }
    while true {
      // A stopped job that may go on has the next turn, before any queued job.
      if !activity.isRunning, !aParkedJobMayGoOn,
        var index = queue.firstIndex(where: { !($0.lane?.isHeld ?? false) && $0.heldAs == nil })
      {
        var before: (@Sendable () -> Void)?
        let first = queue[index]
        if first.lane == nil, first.isWorld, let owner = first.owner,
          let order = taskOrders[owner]
        {
          let ready = queue.indices.filter {
            queue[$0].lane == nil && queue[$0].isWorld && queue[$0].owner == owner
              && queue[$0].heldAs == nil
          }
          if ready.count > 1 {
            let pick = order(ready.count)
            index = ready[min(max(pick.index, 0), ready.count - 1)]
            before = pick.before
          }
        }
        let entry = queue.remove(at: index)
        activity = .running(owner: entry.owner, since: .now)
        if let owner = entry.owner { jobsBegun[owner, default: 0] += 1 }
        if let creation = entry.creation {
          TaskCreators.note(creation, owner: entry.owner, isWorld: entry.isWorld)
        }
        return (entry, before)
      }
      condition.wait()
    }
  }

  // MARK: The global executor

  private typealias GlobalEnqueue = @convention(thin) (UnownedJob) -> Void
  private typealias GlobalEnqueueHook = @convention(thin) (UnownedJob, GlobalEnqueue) -> Void

  /// How many takeovers are under way, and the hook that was in place before the first of them.
  private static let takeover = Locked((depth: 0, previous: GlobalEnqueueHook?.none))

  /// Whether the global executor is taken over right now.
  static var isTakenOver: Bool {
    takeover.value.depth > 0
  }

  /// Sends every job that the runtime would give the global concurrent executor to this
  /// scheduler instead, until as many ``endTakeover()`` calls as there were of this one.
  ///
  /// The Swift runtime exports `swift_task_enqueueGlobal_hook` for exactly this: a test tool that
  /// wants to own the global executor sets it, and the runtime calls it instead of enqueueing a
  /// job on its thread pool. It is how the schedulers of several Swift testing libraries work.
  /// The first takeover keeps the hook it replaces, and the last one to end puts it back.
  func beginTakeover() {
    Self.takeover.withLock { takeover in
      if takeover.depth == 0 {
        takeover.previous = Self.hook.pointee
        Self.hook.pointee = { job, _ in Scheduler.shared.enqueue(job, on: nil) }
      }
      takeover.depth += 1
    }
  }

  /// Ends a takeover begun by ``beginTakeover()``: after the last one, the runtime enqueues jobs
  /// the way it did before the first. Jobs already queued here still run here.
  func endTakeover() {
    Self.takeover.withLock { takeover in
      precondition(takeover.depth > 0, "endTakeover() follows beginTakeover()")
      takeover.depth -= 1
      if takeover.depth == 0 {
        Self.hook.pointee = takeover.previous
      }
    }
  }

  /// Where the runtime keeps its global enqueue hook.
  /// Written only under ``takeover``'s lock; the runtime reads it.
  nonisolated(unsafe) private static let hook: UnsafeMutablePointer<GlobalEnqueueHook?> = {
    guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "swift_task_enqueueGlobal_hook") else {
      fatalError(
        "This Swift runtime has no swift_task_enqueueGlobal_hook, which ScheduleExplorer needs.")
    }
    return symbol.assumingMemoryBound(to: GlobalEnqueueHook?.self)
  }()
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
  let scenario: Int
  /// Guarded by the scheduler's lock.
  var isHeld = false
  /// What to do when the caller's task next leaves an actor, where the lane is held; see
  /// ``Scheduler/holdWhenLeaving(_:letGo:_:)``. Guarded by the scheduler's lock.
  var holdWhenLeaving: (@Sendable () -> Void)?
  /// How many times the caller's task has left an actor. Guarded by the scheduler's lock.
  var leavings = 0
  /// The executor of the first actor the caller's task left, which is the actor it called.
  /// Guarded by the scheduler's lock.
  var home: UnsafeRawPointer?
  /// The runtime's identifier of the caller's own task, the first task enqueued here; its child
  /// tasks run here too. Guarded by the scheduler's lock.
  var caller: UInt64?

  init(for scenario: Int) {
    self.scenario = scenario
    _ = Unmanaged.passRetained(self)
  }

  func enqueue(_ job: consuming ExecutorJob) {
    Scheduler.shared.enqueue(UnownedJob(job), on: self)
  }
}

/// A duration kept per thread: how long the job a thread runs spent stopped by `park(_:)`.
private final class ThreadDuration: @unchecked Sendable {
  private let key: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()

  var value: Duration {
    get {
      pthread_getspecific(key).map { Duration.nanoseconds(Int(bitPattern: $0)) } ?? .zero
    }
    set {
      let nanoseconds =
        newValue.components.seconds * 1_000_000_000
        + newValue.components.attoseconds / 1_000_000_000
      pthread_setspecific(key, UnsafeRawPointer(bitPattern: Int(nanoseconds)))
    }
  }
}
