import Foundation
import Testing

/// The world of one test: the callers it starts, the fakes it controls, and what they observed.
///
/// A test starts callers with ``start(_:_:_:)``, lets them run until nothing more can happen with
/// ``settle()``, and then decides what the fakes do next. Every job of the test process runs on
/// one thread (see ``Scheduler``), so "settled" is exact: every caller, and every task the actor
/// started for them, has either finished or is suspended waiting for something only the test can
/// give. No wait depends on a clock; the ``timeLimit`` only stops a run that stopped making
/// progress, so that it fails within seconds instead of hanging.
public final class Scenario: Sendable {
  /// How long any single wait may take before the test gives up. Correct code needs a few
  /// milliseconds; waits end as soon as nothing more can happen, so only a caller that keeps a
  /// thread busy (a loop that never ends, a semaphore that is never signalled) ever reaches it.
  public let timeLimit: Duration

  private struct State {
    var events: [Event] = []
    var clock = 0
    var callers: [CallerRecord] = []
    var lanes: [String: Lane] = [:]
    /// How many names from A on are kept for callers started by name later, as an exploration
    /// keeps A, B, … for its calls: callers started by count are named after them.
    var keptNames = 0
    var tasks: [String: Task<Void, Never>] = [:]
    var requestLogs: [WeakRequests] = []
    var waiters: [Int: Waiter] = [:]
    var nextWaiterID = 0
  }

  private struct Waiter {
    let condition: @Sendable () -> Bool
    let continuation: CheckedContinuation<Bool, Never>
    /// When the wait began, and how long the scheduler had spent on other scenarios' jobs by
    /// then: the wait's time is its own, not that of the tests running beside it.
    let startedAt: ContinuousClock.Instant
    let othersBusyAtStart: Duration
    /// Whether the wait also ends when nothing of the scenario can run.
    let endsWhenSettled: Bool
  }

  private struct WeakRequests {
    weak var requests: Requests?
  }

  private let state = Locked(State())

  /// Whether the code under test runs on the main actor, whose jobs run on the main dispatch
  /// queue, where the scheduler cannot see them. Then "settled" says nothing about that code, so
  /// waits end only when their condition holds (``waitUntil(_:)``), never because the scheduler
  /// has gone idle, and ``settle()`` is not available.
  public let watchesTheMainActor: Bool

  /// Tells this scenario's jobs from every other's, for the scheduler; never reused.
  let id = Scenario.nextID.withLock { id in
    id += 1
    return id
  }

  private static let nextID = Locked(0)

  /// What failure messages call the code under test when they say what a correct one does:
  /// `actor`, or `model` for a `@MainActor` class, which is isolated to an actor but is not one.
  public let subject: String

  /// A scenario with nothing started yet; make it inside ``withTestScheduler(isolation:_:)``.
  ///
  /// - Parameters:
  ///   - timeLimit: how long one wait may take before the test gives up.
  ///   - watchesTheMainActor: whether the code under test runs on the main actor.
  ///   - subject: what failure messages call the code under test, such as `actor` or `model`.
  public init(
    timeLimit: Duration = .seconds(2), watchesTheMainActor: Bool = false, subject: String = "actor"
  ) {
    self.timeLimit = timeLimit
    self.watchesTheMainActor = watchesTheMainActor
    self.subject = subject
    checkUsage(
      Scheduler.isTakenOver,
      """
      A Scenario runs its callers on the test scheduler: make it inside withTestScheduler { }, \
      or in a test or suite with the .testScheduler trait.
      """)
    Scheduler.shared.register(self)
  }

  /// Runs `body` as a step of this scenario: what it resumes or starts is this scenario's work,
  /// the world's, or with `asTest` the test's own.
  ///
  /// A fake calls it around whatever it does from outside a caller's task, such as resuming a
  /// continuation when the test lets a socket deliver: the work that resumes then belongs to this
  /// scenario, so that ``settle()`` waits for it.
  public func step<Result>(asTest: Bool = false, _ body: () throws -> Result) rethrows -> Result {
    try Scheduler.withOwner(id, asTest: asTest, body)
  }

  deinit {
    // A held caller of a test that has ended is let go, so that its jobs drain.
    letEverythingGo()
    Scheduler.shared.unregister(id)
  }

  /// Lets every held caller and held task go, and waits until what they were kept from has run
  /// as far as it can without the test: to a request that waits for its answer, or to its end.
  ///
  /// An exploration does this after each schedule, so that no job of one run is left queued on an
  /// actor that outlives it (one the code under test keeps in a `static let`, say) when the next
  /// run begins.
  func windDown() async {
    letEverythingGo()
    _ = await waitForWaiter(until: { false })
  }

  private func letEverythingGo() {
    for lane in state.value.lanes.values {
      Scheduler.shared.holdWhenLeaving(lane, nil)
      if lane.isHeld { Scheduler.shared.setHeld(false, lane) }
    }
    for number in Scheduler.shared.heldLateTasks(of: id) {
      Scheduler.shared.letLateTaskRun(number, of: id)
    }
  }

  // MARK: Callers

  /// Starts `count` callers that each run `body` at the same time, named A, B, C, … in the order
  /// they were started across the whole scenario (after Z: AA, AB, …). In an exploration's
  /// ``ExplorationWorld/prepare(_:)``, the names of the exploration's own callers are skipped:
  /// with two calls explored, the first caller started there is C.
  ///
  /// Each caller runs in a lane of its own, until it suspends; nothing a caller does is left to
  /// the thread scheduler.
  ///
  /// - Parameters:
  ///   - operation: what the callers do, as the timeline shows it, such as `image(for: cat.png)`.
  public func start<Value: Sendable>(
    _ count: Int,
    _ operation: String,
    _ body: @escaping @Sendable () async throws -> Value
  ) -> Callers<Value> {
    let names = state.withLock { state in
      var names: [String] = []
      var index = max(state.callers.count, state.keptNames)
      while names.count < count {
        let name = Self.callerName(index)
        if state.lanes[name] == nil { names.append(name) }
        index += 1
      }
      return names
    }
    return start(names, operation, body)
  }

  /// Keeps the names of the first `count` callers (A, B, …) for callers started by name.
  func keepCallerNames(_ count: Int) {
    state.withLock { $0.keptNames = count }
  }

  /// Starts callers with the given names, each running `body`; see ``start(_:_:_:)``.
  public func start<Value: Sendable>(
    _ names: [String],
    _ operation: String,
    _ body: @escaping @Sendable () async throws -> Value
  ) -> Callers<Value> {
    let callers = Callers<Value>(names: names, operation: operation, scenario: self)
    for name in names {
      let lane = Lane(for: id)
      // The task is made, and kept, under the scenario's lock: its first step records under the
      // same lock, so even a test that runs beside the scheduler finds it kept by then.
      state.withLock { state in
        state.clock += 1
        state.callers.append(CallerRecord(name: name, operation: operation, startedAt: state.clock))
        state.lanes[name] = lane
        state.tasks[name] = Task(executorPreference: lane) {
          await CurrentCaller.withName(name) {
            self.record(.asked(operation))
            let result: Result<Value, any Error>
            do {
              let value = try await body()
              self.record(.returned(value is Void ? nil : describe(value)))
              result = .success(value)
            } catch {
              self.record(.threw(describe(error)))
              result = .failure(error)
            }
            // The scenario's record first: a test that sees the caller finished can read its result.
            self.finish(name, with: result.map { $0 as any Sendable })
            callers.finish(name, with: result)
            self.checkWaiters()
          }
        }
      }
    }
    return callers
  }

  /// Calls `body` twice so that the second call lands in the narrowest gap an `await` leaves: the
  /// first caller's request has finished, but the first caller has not yet resumed to act on it.
  ///
  /// Caller A starts and runs until it suspends; the test holds A back, lets every request of
  /// `fake` finish, and lets everything else run as far as it can. Only then does caller B start
  /// and run as far as it can, before A is let go. A correct actor still knows, in that gap, that
  /// A's work exists, so B joins it instead of starting its own.
  ///
  /// - Returns: what A and B got, in that order.
  public func callInTheGap<Value: Sendable>(
    _ operation: String,
    answering fake: some FakeService,
    _ body: @escaping @Sendable () async throws -> Value
  ) async throws -> [CallerResult<Value>] {
    let first = start(1, operation, body)
    try await settle()
    first.hold()
    fake.open()
    try await first.waitUntilReadyToResume()
    let second = start(1, operation, body)
    try await settle()
    first.release()
    return try await first.results() + second.results()
  }

  /// Runs one caller to completion and hands back what it returned, or throws what it threw.
  public func call<Value: Sendable>(
    _ operation: String,
    _ body: @escaping @Sendable () async throws -> Value
  ) async throws -> Value {
    let caller = start(1, operation, body)
    return try await caller.results()[0].result.get()
  }

  /// Waits until nothing of this scenario can run: every caller has finished, or is suspended
  /// waiting for a fake's request, for another caller, or in a held lane.
  public func settle() async throws {
    checkUsage(
      !watchesTheMainActor,
      "settle() cannot see the main actor's jobs; wait with waitUntil(_:) for what they must do")
    guard await waitForWaiter(until: { false }) else {
      throw TimeLimitExceeded(
        """
        After \(timeLimit) the actor was still running and had not settled. Does a caller keep a \
        thread busy: a loop that never ends, a loop that keeps looking until another caller's \
        work is done, or a wait for a lock or semaphore? The tests let the outside world answer \
        only once nothing can run.
        """,
        events: events
      )
    }
  }

  /// Waits until `condition` holds, or until nothing of this scenario can run (so that it never
  /// will hold unless the test steps in), and answers whether it holds.
  ///
  /// The condition is evaluated again whenever a job ends or a fake changes state, never by
  /// polling, and never by waiting for a clock: a test that asks "did B return at once?" gets its
  /// answer the moment the actor has done all it can.
  public func wait(until condition: @escaping @Sendable () -> Bool) async -> Bool {
    _ = await waitForWaiter(until: condition, orSettled: !watchesTheMainActor)
    return condition()
  }

  /// Waits until `condition` holds, however long the scheduler has been idle, and answers whether
  /// it did before the time limit.
  ///
  /// For work the scheduler cannot see: code isolated to the main actor runs on the main dispatch
  /// queue, so "nothing of the scenario can run" says nothing about it. Wait for what that work
  /// must do instead, such as a request reaching a fake. Correct code makes the condition true in
  /// milliseconds; only code that never does waits out the time limit.
  public func waitUntil(_ condition: @escaping @Sendable () -> Bool) async -> Bool {
    _ = await waitForWaiter(until: condition, orSettled: false)
    return condition()
  }

  /// Waits until `condition` holds or, while `heldUp` holds, until nothing more happens without
  /// the test, and answers whether `condition` holds.
  ///
  /// For code on the main actor, whose jobs the scheduler does not run, while the test holds a
  /// caller that others may be waiting behind: "nothing more happens" means that, twice in a
  /// row, the scheduler ran everything of this scenario it could, then the main actor ran every
  /// job it had been given, and nothing reached the timeline meanwhile. A search whose decode
  /// queues behind another's held one then ends the wait at once instead of at the time limit.
  /// It gives up after 20 rounds that each brought something new, and returns at once, without
  /// waiting further, once the scheduler has nothing to run and `heldUp` does not hold.
  public func waitUntil(
    _ condition: @escaping @Sendable () -> Bool, orQuietWhile heldUp: @Sendable () -> Bool
  ) async -> Bool {
    var quietRounds = 0
    var rounds = 0
    while quietRounds < 2 && rounds < 20 {
      rounds += 1
      let before = state.value.clock
      _ = await waitForWaiter(until: condition, orSettled: true)
      if condition() || !heldUp() { break }
      // The main actor runs its jobs in the order they came, so once this one has run, every
      // main-actor job enqueued before it has run too.
      await MainActor.run {}
      quietRounds = state.value.clock == before ? quietRounds + 1 : 0
    }
    return condition()
  }

  /// Waits until `condition`, which says what settled means for work the scheduler cannot see,
  /// holds; after the time limit, throws, saying that `what` never happened.
  public func settle(when condition: @escaping @Sendable () -> Bool, _ what: String) async throws {
    guard await waitUntil(condition) else {
      throw TimeLimitExceeded("After \(timeLimit), \(what).", events: events)
    }
  }

  /// Waits until `condition` holds or, when `orSettled`, the scenario has settled, and answers
  /// whether either happened before the time limit.
  private func waitForWaiter(
    until condition: @escaping @Sendable () -> Bool, orSettled: Bool = true
  ) async -> Bool {
    // A test may have started on the runtime's own threads, before the scheduler took the global
    // executor over; from here on, it runs on the scheduler.
    await goOnOnTheScheduler()
    let startedAt = ContinuousClock.now
    let othersBusyAtStart = Scheduler.shared.busyTime(ofAllBut: id)
    return await withCheckedContinuation { continuation in
      state.withLock { state in
        state.waiters[state.nextWaiterID] = Waiter(
          condition: condition, continuation: continuation, startedAt: startedAt,
          othersBusyAtStart: othersBusyAtStart,
          endsWhenSettled: orSettled)
        state.nextWaiterID += 1
      }
      if Scheduler.shared.isCurrentThread {
        // The job asking is still running: "settled" can be read once it has ended.
        Scheduler.shared.checkAfterThisJob(id)
        checkWaiters()
      } else {
        // Off the scheduler's thread (a test on the main actor), no job of the scheduler's is the
        // one asking, so "settled" can be read now.
        checkWaiters(betweenJobs: true)
      }
    }
  }

  /// Ends the waits that have lasted the time limit, as unsatisfied. The scheduler's watchdog
  /// calls this a few times a second; it is a backstop for a run that stopped making progress,
  /// never the way a wait ends. The time the scheduler's one thread spent on other scenarios' jobs
  /// meanwhile does not count: a suite's tests share that thread, and on a busy machine they can
  /// take seconds between them, while this scenario had nothing to do but wait its turn.
  func expireWaiters(at now: ContinuousClock.Instant) {
    let othersBusy = Scheduler.shared.busyTime(ofAllBut: id)
    let expired = state.withLock { state in
      state.waiters.filter { _, waiter in
        now - waiter.startedAt - (othersBusy - waiter.othersBusyAtStart) >= timeLimit
      }.map(\.key)
    }
    for id in expired {
      resolveWaiter(id, satisfied: false)
    }
  }

  // MARK: The order of ready tasks

  /// From now on, whenever several of this scenario's tasks that run outside the callers' lanes
  /// (`Task {}` bodies, and the actors they run) are ready at once, runs the newest first.
  ///
  /// The runtime promises no order among ready tasks: on its pool of threads, a task created
  /// later may start first. The scheduler otherwise runs them oldest first, the one order in which
  /// code that assumes the order of creation always works; this is the other end of the range.
  public func runsReadyTasksNewestFirst() {
    Scheduler.shared.setTaskOrder(for: id) { ready in (ready - 1, nil) }
  }

  // MARK: Tasks that start late

  /// From now on, holds back every task that starts outside the callers' own work, until
  /// ``letHeldTasksRun()``: those the actor's work starts in no caller's lane, such as a
  /// `Task.detached` or a `Task {}` it creates, and those a world event starts, such as the
  /// `Task {}` a socket's callback creates for each message.
  ///
  /// The runtime starts such a task whenever it gets to it, so other calls and events may come
  /// first, and may come while the work it does, such as a decode, goes on. Held, it waits in the
  /// queue and counts as settled, so a test can settle, start another caller or close a socket,
  /// and see what follows. An actor that starts no task meanwhile is not affected.
  public func holdNewTasks() {
    recordTestStep("holds back every task that starts from now on")
    let started = Locked(0)
    Scheduler.shared.setLateTasks(for: id) { _ in
      let number = started.withLock { count in
        count += 1
        return count
      }
      self.recordTestStep("holds back the task just started (task \(number))")
      return number
    }
  }

  /// Lets every task that ``holdNewTasks()`` held back run, oldest first, and holds
  /// no more.
  public func letHeldTasksRun() {
    recordTestStep("lets the tasks it held back run")
    Scheduler.shared.setLateTasks(for: id, nil)
    for number in Scheduler.shared.heldLateTasks(of: id) {
      Scheduler.shared.letLateTaskRun(number, of: id)
    }
  }

  // MARK: Observations

  /// A failure message that ends with the timeline of what happened and what a correct actor
  /// would have done instead.
  ///
  /// Pass it as the comment of `#expect`: Swift Testing evaluates the comment only when the
  /// expectation fails, so a passing test never draws a timeline.
  ///
  /// - Parameters:
  ///   - message: what was expected, what happened, and where the gap opened.
  ///   - correctly: the interleaving a correct actor shows, such as `B joins download #1`.
  public func explain(_ message: String, correctly: String) -> Comment {
    Comment(
      rawValue: "\(message)\n\(drawTimeline(events))\nWith a correct \(subject): \(correctly)")
  }

  /// What every caller did so far, in the order they started.
  public var callers: [CallerRecord] {
    state.value.callers
  }

  /// The requests that reached this scenario's fakes, fake by fake.
  var requestLogs: [Requests] {
    state.value.requestLogs.compactMap(\.requests)
  }

  /// Cancels caller `name`'s task, as a screen does when its user navigates away.
  func cancel(_ name: String) {
    cancellation(of: name)()
  }

  /// Records caller `name`'s cancellation now, and returns what cancels its task: that alone, so
  /// that another thread can run it with nothing of the scenario's between them.
  /// Caller `name`'s cancellation, for another thread to run later; the timeline shows it as a
  /// step of the test's, taken now. For a hook inside the world's own work (a fake's), which knows
  /// the caller only by name; ``Callers/cancellation(_:)`` does the same for callers at hand.
  public func cancellationOnAnotherThread(of name: String) -> @Sendable () -> Void {
    recordTestStep("cancels \(name) on another thread")
    return cancellation(of: name)
  }

  func cancellation(of name: String) -> @Sendable () -> Void {
    let task = state.withLock { state -> Task<Void, Never>? in
      state.clock += 1
      if let index = state.callers.firstIndex(where: { $0.name == name }) {
        state.callers[index].cancelledAt = state.clock
      }
      return state.tasks[name]
    }
    return { [id] in Scheduler.withOwner(id) { task?.cancel() } }
  }

  /// Holds or releases caller `name`: while held, whatever would resume it waits.
  func setHeld(_ held: Bool, _ name: String) {
    guard let lane = state.value.lanes[name] else { return }
    Scheduler.shared.holdWhenLeaving(lane, nil)
    state.withLock { state in
      if let index = state.callers.firstIndex(where: { $0.name == name }) {
        state.callers[index].isHeld = held
      }
    }
    Scheduler.shared.setHeld(held, lane)
  }

  /// Holds caller `name` the next time its task leaves the actor it runs on (see ``ActorHops``):
  /// to run nonisolated code, such as a `@concurrent` function or a service's method, to call
  /// another actor, to wait for a child task, or to return. From there on, whatever would run it waits, as for a held caller, while the others
  /// run; the actor is free meanwhile, as it is while another thread runs that code. A caller
  /// held now is let go until then.
  func holdWhenItLeavesTheActor(_ name: String) {
    guard let lane = state.value.lanes[name] else { return }
    state.withLock { state in
      if let index = state.callers.firstIndex(where: { $0.name == name }) {
        state.callers[index].isHeld = false
      }
    }
    // Weakly: a lane outlives its scenario.
    Scheduler.shared.holdWhenLeaving(lane, letGo: true) { [weak self] in
      self?.heldWhereItLeft(name)
    }
  }

  /// The caller whose lane `lane` is, if it is one of this scenario's.
  func caller(of lane: Lane) -> String? {
    state.value.lanes.first { $0.value === lane }?.key
  }

  /// Records that caller `name` is held where its task left the actor, as the scheduler holds its
  /// lane there.
  func heldWhereItLeft(_ name: String) {
    state.withLock { state in
      if let index = state.callers.firstIndex(where: { $0.name == name }) {
        state.callers[index].isHeld = true
      }
    }
    record(.observed("leaves the actor, and is held outside it"), by: name)
  }

  /// How many times caller `name`'s task has left an actor so far: to run nonisolated code, such
  /// as a `@concurrent` function or a service's method, to call another actor, to wait for a
  /// child task, or to return (see ``ActorHops``).
  ///
  /// A caller held where it left the actor (``Callers/holdWhenTheyLeaveTheActor()``) that leaves
  /// it again once let go had stepped off in the middle of its work, not returned.
  public func timesLeftTheActor(_ name: String) -> Int {
    state.value.lanes[name].map { Scheduler.shared.leavings(of: $0) } ?? 0
  }

  /// How many jobs of caller `name` are ready to run but held, counting those stopped inside
  /// their work at a ``holdPoint(_:)``.
  func queuedJobs(of name: String) -> Int {
    state.value.lanes[name].map {
      Scheduler.shared.queuedJobs(on: $0) + Scheduler.shared.parkedJobs(on: $0)
    } ?? 0
  }

  /// Whether caller `name` has a job ready to run, or stopped inside its work, that waits only
  /// because the test holds it.
  public func isReadyToResume(_ name: String) -> Bool {
    queuedJobs(of: name) > 0
  }

  /// Whether caller `name` is held inside its work, at a ``holdPoint(_:)``.
  public func isHeldInsideItsWork(_ name: String) -> Bool {
    state.value.lanes[name].map { Scheduler.shared.parkedJobs(on: $0) > 0 } ?? false
  }

  /// A point inside synchronous work that a fake does for a caller, such as decoding an answer,
  /// where the caller stops if the test holds it: the rest of the world runs meanwhile, as it
  /// would while that work kept another thread busy, and the work goes on from here once the
  /// caller is let go.
  ///
  /// Work of a caller's own task, or of a `Task {}` it started (which carries its name), stops
  /// here; work outside the scheduler's threads, such as the main actor's, never does.
  ///
  /// - Parameter what: what the caller is doing, as the timeline says it: `decodes "s"`.
  public func holdPoint(_ what: String) {
    holdPoint(what, for: nil)
  }

  /// Stops the work running now here while `caller` is held, as ``holdPoint(_:)`` does for the
  /// caller whose name the work carries.
  ///
  /// For a fake that can tell whose work it is doing from what it was handed, such as an answer
  /// it made for one caller's request: work that carries no caller's name, because no caller's
  /// work was seen to start it, would otherwise never stop here. The name the work carries, if
  /// any, comes first.
  public func holdPoint(_ what: String, for caller: String?) {
    guard Scheduler.shared.isCurrentThread, let name = CurrentCaller.name ?? caller,
      let lane = state.value.lanes[name],
      state.value.callers.contains(where: {
        $0.name == name && $0.isHeld
      })
    else { return }
    record(.observed("is held while it \(what)"), by: name)
    Scheduler.shared.park(lane)
  }

  /// Records a step the test takes, such as letting the downloads finish, in the timeline.
  public func recordTestStep(_ step: String) {
    CurrentCaller.withName(nil) {
      record(.test(step))
    }
  }

  /// Records something a fake saw or did, such as `connects to the socket`, in the timeline lane
  /// of the caller whose work it is doing (``CurrentCaller/name``).
  public func recordObservation(_ what: String) {
    record(.observed(what))
  }

  /// Records something a fake saw or did in the lane of `caller`: a caller's name, the name of a
  /// lane of the fake's own, such as `socket`, or `nil` for the lane of work nobody's name is on.
  public func recordObservation(_ what: String, by caller: String?) {
    record(.observed(what), by: caller)
  }

  func record(_ kind: Event.Kind) {
    record(kind, by: CurrentCaller.name)
  }

  /// Records, in the lane of work nobody's name is on, that work of this scenario's went on where
  /// the scheduler could not see it; the timeline then says what that means for its verdict.
  func recordWorkOutsideTheScheduler() {
    record(.observed(Event.workOutsideTheScheduler), by: nil)
  }

  /// Records an event for `caller`, for work done on a caller's behalf by another thread, such as
  /// a fake answering a request when the test releases it.
  func record(_ kind: Event.Kind, by caller: String?) {
    state.withLock { state in
      state.clock += 1
      if Self.keepsTimeline {
        state.events.append(Event(caller: caller, kind: kind))
      }
    }
    ChildProcess.note(Event(caller: caller, kind: kind), in: self)
    checkWaiters()
  }

  /// The next moment on the scenario's clock, which orders callers and requests.
  func tick() -> Int {
    state.withLock { state in
      state.clock += 1
      return state.clock
    }
  }

  func register(_ requests: Requests) {
    state.withLock { $0.requestLogs.append(WeakRequests(requests: requests)) }
  }

  /// `SCHEDULE_EXPLORER_TIMELINE=off` stops recording timelines, so that a benchmark can measure
  /// what they cost; failure messages then show no timeline.
  private static let keepsTimeline =
    ProcessInfo.processInfo.environment["SCHEDULE_EXPLORER_TIMELINE"] != "off"

  var events: [Event] {
    state.value.events
  }

  /// Ends the test's waits whose condition now holds.
  ///
  /// Every request and every recorded event does this already; a fake calls it when its own
  /// state changes in a way a test may be waiting for, such as a socket being connected.
  public func checkWaiters() {
    checkWaiters(betweenJobs: false)
  }

  /// Resolves the waits whose condition now holds.
  ///
  /// - Parameter betweenJobs: whether the scheduler calls this between two jobs, the only moment
  ///   at which "settled" can be read: from inside a job, the job itself is still running.
  func checkWaiters(betweenJobs: Bool) {
    let waiters = state.withLock { $0.waiters.map { ($0.key, $0.value) } }
    guard !waiters.isEmpty else { return }
    let settled = betweenJobs && Scheduler.shared.isSettled(id)
    for (id, waiter) in waiters where (settled && waiter.endsWhenSettled) || waiter.condition() {
      resolveWaiter(id, satisfied: true)
    }
  }

  private func finish(_ name: String, with result: Result<any Sendable, any Error>) {
    state.withLock { state in
      state.clock += 1
      if let index = state.callers.firstIndex(where: { $0.name == name }) {
        state.callers[index].finishedAt = state.clock
        state.callers[index].result = result
      }
    }
    checkWaiters()
  }

  private func resolveWaiter(_ waiterID: Int, satisfied: Bool) {
    guard let waiter = state.withLock({ $0.waiters.removeValue(forKey: waiterID) }) else { return }
    // The test that waited goes on as this scenario's work.
    step(asTest: true) { waiter.continuation.resume(returning: satisfied) }
  }

  /// The name of the caller started in position `index` (from 0): A to Z, then AA, AB, … as a
  /// spreadsheet names its columns.
  static func callerName(_ index: Int) -> String {
    var name = ""
    var rest = index + 1
    while rest > 0 {
      rest -= 1
      name.insert(Character(UnicodeScalar(UInt8(65 + rest % 26))), at: name.startIndex)
      rest /= 26
    }
    return name
  }

  /// The position (from 0) of the caller named `name`, or `nil` if no caller is named so.
  static func callerIndex(_ name: String) -> Int? {
    guard isCallerName(name) else { return nil }
    return name.unicodeScalars.reduce(0) { $0 * 26 + Int($1.value) - 64 } - 1
  }

  /// Whether `name` is one a scenario gives its callers: capital letters from A to Z only.
  static func isCallerName(_ name: String) -> Bool {
    !name.isEmpty && name.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) }
  }
}

/// What one caller did, as the scenario saw it, on the scenario's clock.
public struct CallerRecord: Sendable {
  /// Its name, such as `A`.
  public let name: String
  /// What it called, as the timeline shows it, such as `image(for: cat.png)`.
  public let operation: String
  /// When it started, on the scenario's clock.
  public let startedAt: Int
  /// When it returned or threw, on the scenario's clock; `nil` while it runs.
  public internal(set) var finishedAt: Int?
  /// What it returned or threw; `nil` while it runs.
  public internal(set) var result: Result<any Sendable, any Error>?
  /// When the test cancelled its task, if it did.
  public internal(set) var cancelledAt: Int?
  /// Whether the test holds it back in a gap right now.
  public internal(set) var isHeld = false

  /// Whether it has returned or thrown.
  public var hasFinished: Bool { finishedAt != nil }
  /// Whether the test cancelled its task.
  public var wasCancelled: Bool { cancelledAt != nil }

  /// What it returned, if it returned a `T`.
  public func value<T>(as type: T.Type = T.self) -> T? {
    if case .success(let value)? = result { value as? T } else { nil }
  }

  /// What it threw, if it threw.
  public var error: (any Error)? {
    if case .failure(let error)? = result { error } else { nil }
  }
}

extension Duration {
  /// The duration in seconds, for Foundation and Dispatch.
  var seconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}
