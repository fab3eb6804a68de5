import Foundation
import Testing

/// Checks an actor's promise in every schedule of a few calls, within a bound.
///
/// A scripted test picks one interleaving and says what must come of it. An exploration picks
/// none: it runs the calls again and again, each time from a fresh world, and at every settled
/// moment it tries each thing that could happen next, depth first, in a fixed order:
/// - a caller who has not called yet makes its call;
/// - the world takes a step of its own ("deliver", "close");
/// - a waiting request finishes, with each outcome its fake knows (a cancelled request that winds
///   down, with each way its fake says a cancelled request may end, such as
///   `URLError.cancelled`), and optionally with its caller held in the gap between the answer and
///   its resuming;
/// - any caller who has not returned is held: whatever would resume it next waits, whether that
///   is its own request's answer, the end of work it joined, or a hold point inside synchronous
///   work (``Scenario/holdPoint(_:)``), while the others run;
/// - a held caller resumes, or a held task runs;
/// - a caller is cancelled;
/// - with any of these, a caller is held where it next leaves the actor to work off it, as in a
///   `@concurrent` function, in another actor or in a child task (`async let`, a task group), so
///   that the others run while it is away (``Choice/away(caller:leaving:)``,
///   ``ExplorationBounds/holdsOffTheActor``).
///
/// And while the actor runs, where several jobs of the world's own tasks (`Task {}` bodies, which
/// no caller runs in its lane) are ready at once, it tries each of them first (``Choice/task(_:)``).
/// Where a world allows it (``ExplorationBounds/lateTasks``), a task that a cancellation or a step
/// of the world's own starts, such as the `Task {}` a cancellation handler creates, is held back
/// until a later settled moment, as a busy pool of threads may start it late
/// (``Choice/late(task:held:)``); and so, where it allows it
/// (``ExplorationBounds/lateTasksOfTheActor``), is a task that the actor's own work starts, such
/// as a decode it moves off the actor into a `Task.detached`, so that other calls come in while it
/// has not run.
///
/// Between two settled moments the actor runs alone, and the scheduler runs its jobs one at a
/// time in the order the runtime enqueued them, except where a hold or a task order says
/// otherwise. The order among callers who resume together is the runtime's to choose; holding all
/// but one of them lets that one go first, so within the bound on holds, the exploration tries
/// those orders too. It checks the world's promise at every settled moment and at the end.
///
/// ## What it prunes, and why that loses nothing
/// - Callers who would make the same call are interchangeable: only the first of them who has not
///   called may go next.
/// - A hold that has kept nothing back once the next choice has run ends its schedule at once, as
///   pruned: holding a caller who is not yet ready changes no job, so the schedule that holds it
///   at a later moment runs the same jobs in the same order, and the search reaches it too.
/// - `hold:A` followed by an answer to A's own request is not tried: it is `A=…+hold`.
/// - Letting a caller go at the moment after it was held is not tried: it is the same as never
///   holding it, unless nothing else could happen, and then it is the only choice. The same goes
///   for a caller held where it left the actor, if nothing ran while it was held.
/// - A caller is held where it leaves the actor only where it left to work: the run in which
///   nobody is held comes first, and shows where each caller went. Held on its way to a request of
///   a fake, a caller would differ from one whose request waits only in the request not being made
///   yet, and the explorer already lets others run while a request waits; held on its way back
///   to its own caller, it would have done all it does to the actor; held on its way to wait for
///   something else, such as a stream's next element, it would only wait longer.
///
/// Everything else is bounded, not pruned (``ExplorationBounds``): how many outcomes other than the
/// usual, holds, cancellations, answers out of order and task orders one schedule may have, and,
/// where a world asks, whether one caller's cancelled requests wind down only oldest first. Two
/// jobs of the same actor never commute, and the scheduler cannot see which actor a job touches,
/// so it does not reorder jobs that might not conflict; that is where a reduction such as DPOR
/// would prune more.
///
/// The first schedule that breaks the promise is shrunk to the fewest steps that still break the
/// same part of it, and reported with its timeline and a one-line schedule that replays exactly
/// that run, named by the test's module:
///
///     SCHEDULE_EXPLORER_REPLAY='ConnectionPoolTests: A B' \
///       swift test --filter everyInterleavingKeepsThePromise
///
/// Two environment variables change what it does:
/// - `SCHEDULE_EXPLORER_REPLAY`, written `<test module>: <schedule>`, replays that one schedule
///   in that module's explorations instead of exploring;
/// - `SCHEDULE_EXPLORER_TEST_COMMAND` is the command that the printed replay line starts with, in
///   place of `swift test`, for a tool that builds its tests with options of its own; without it,
///   the world's ``ExplorationWorld/replayCommand``, if any.
///
/// The same schedules run in the same order every time: the scheduler makes every run of a
/// schedule the same run.
public struct Exploration<World: ExplorationWorld>: Sendable {
  /// The calls, one per caller: the first is caller A's, the second B's, and so on (after Z come
  /// AA, AB, …).
  public let calls: [World.Call]
  /// How far the exploration goes.
  public let bounds: ExplorationBounds
  /// The module of the test, such as `ConnectionPoolTests`, which names its explorations in a
  /// replay request.
  private let module: String
  private let sourceLocation: SourceLocation

  /// An exploration of `world`'s actor, whose callers make `calls`.
  ///
  /// - Parameters:
  ///   - world: the world to build afresh for every schedule.
  ///   - calls: one call per caller, in the order the callers are named.
  ///   - bounds: how far the exploration goes.
  ///   - fileID: the test's file, whose module names the exploration in a replay request.
  ///   - sourceLocation: where a broken promise is reported.
  public init(
    _ world: World.Type,
    calls: [World.Call],
    bounds: ExplorationBounds = ExplorationBounds(),
    fileID: String = #fileID,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    self.calls = calls
    self.bounds = bounds
    module = String(fileID.prefix { $0 != "/" })
    self.sourceLocation = sourceLocation
  }

  /// What exploring found: how many schedules ran, and how long they took on the scheduler's
  /// thread, apart from other tests' work that ran in between.
  public struct Summary: Sendable {
    /// How many schedules ran, the one that broke the promise included.
    public let schedules: Int
    /// Of those, how many were cut short because they could only repeat another schedule (see
    /// ``ExplorationBounds/holds``).
    public let pruned: Int
    /// The scheduler's time spent on those schedules, in seconds.
    public let seconds: Double
  }

  /// The scheduler's time spent on this exploration's schedules so far.
  private let spent = Locked(Duration.zero)

  /// Explores every schedule within the bounds, or replays the one `SCHEDULE_EXPLORER_REPLAY`
  /// names for this test's module, and records an issue for the first broken promise.
  @discardableResult
  public func run() async -> Summary {
    var schedules = 0
    var pruned = 0
    if let replay = Self.replayRequest(for: module) {
      schedules = 1
      await replayOnly(replay)
    } else {
      (schedules, pruned) = await exploreAll()
    }
    let seconds = spent.value.seconds
    ExplorationLog.append(
      module: module, schedules: schedules, seconds: seconds, calls: calls.count, pruned: pruned)
    return Summary(schedules: schedules, pruned: pruned, seconds: seconds)
  }

  // MARK: Exploring

  /// One decision point of the depth-first search: the choices that were open, and which one the
  /// current schedule takes.
  private struct Decision {
    var open: [Choice]
    var taken: Int
  }

  private func exploreAll() async -> (schedules: Int, pruned: Int) {
    var path: [Decision] = []
    var schedules = 0
    var pruned = 0
    while true {
      schedules += 1
      // The chooser is also asked from the scheduler's thread, for the order of ready tasks.
      let search = Locked((path: path, depth: 0))
      // Holding a caller where it leaves the actor (`away:A.1`) becomes a choice only once the
      // run that let it go on has shown that the caller stepped off to work.
      let reveal: @Sendable (Int, Choice) -> Void = { depth, choice in
        search.withLock { search in
          guard depth < search.path.count, search.path[depth].taken == 0,
            !search.path[depth].open.contains(choice)
          else { return }
          search.path[depth].open.append(choice)
        }
      }
      let run = await runSchedule(prunes: true, reveal: reveal) { open, _ in
        search.withLock { search in
          defer { search.depth += 1 }
          let depth = search.depth
          if depth < search.path.count {
            let decision = search.path[depth]
            // Of the choices where callers leave the actor, the run that first got there
            // revealed all but the first.
            let same =
              open.first == .nobodyAway
              ? decision.open.first == .nobodyAway : decision.open == open
            guard same else { return .diverged(expected: decision.open) }
            return .take(decision.open[decision.taken])
          }
          guard let first = open.first else { return .stop }
          search.path.append(Decision(open: open, taken: 0))
          return .take(first)
        }
      }
      path = search.value.path
      switch run.verdict {
      case .kept:
        break
      case .pruned:
        pruned += 1
        // What comes after a pruned moment repeats another schedule: skip all of it.
        path.removeLast(max(0, path.count - run.decisions))
      case .broken(let broken):
        await report(broken, from: run, after: schedules)
        return (schedules, pruned)
      case .diverged(let message):
        Issue.record(
          Comment(rawValue: "\(message)\n\(drawTimeline(run.events))"),
          sourceLocation: sourceLocation)
        return (schedules, pruned)
      case .invalid:
        preconditionFailure("a schedule of the search itself cannot be invalid")
      }
      // Backtrack: the deepest decision with a choice left takes its next one.
      while let last = path.last, last.taken + 1 >= last.open.count {
        path.removeLast()
      }
      guard !path.isEmpty else { return (schedules, pruned) }
      path[path.count - 1].taken += 1
      if schedules >= bounds.schedules {
        Issue.record(
          """
          The exploration stopped after \(schedules) schedules without covering them all: the \
          actor's work can happen in more orders than these bounds allow for, as when it makes \
          more requests than a correct one needs, or keeps many tasks ready at once. Look at the \
          scripted tests first.
          """,
          sourceLocation: sourceLocation)
        return (schedules, pruned)
      }
    }
  }

  // MARK: Replaying and shrinking

  private func replayOnly(_ text: String) async {
    let schedule: Schedule
    do {
      schedule = try Schedule(parsing: text)
    } catch {
      Issue.record(
        "SCHEDULE_EXPLORER_REPLAY could not be read: \(error.description).",
        sourceLocation: sourceLocation)
      return
    }
    let run = await replay(schedule)
    switch run.verdict {
    case .kept, .pruned:
      break
    case .broken(let broken):
      await report(broken, from: run, after: nil, shrunk: schedule)
    case .invalid(let step, let choice, let why, let open):
      let before = step == 0 ? "at the start" : "after `\(Schedule(run.choices))`"
      let instead =
        open.isEmpty
        ? "Nothing else could happen there either."
        : "What could happen there: \(Schedule(open))."
      Issue.record(
        Comment(
          rawValue: """
            Step \(step + 1) of SCHEDULE_EXPLORER_REPLAY, `\(choice)`, cannot happen \(before): \(why). \
            \(instead) A schedule replays as it ran when this exploration printed it; if this \
            one came from this exploration, the actor now behaves differently at that step, and \
            if it came from another exploration of the module, run only that one with the \
            `--filter` its replay command names.
            \(drawTimeline(run.events))
            """), sourceLocation: sourceLocation)
    case .diverged(let message):
      Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    }
  }

  /// Runs `schedule`'s choices, then brings the run to its end the plainest way: held callers
  /// resume, waiting requests finish with their default outcome, and the world takes the steps
  /// that end a run; nobody new calls.
  private func replay(_ schedule: Schedule) async -> Run {
    await replayTellingWhatWasOpen(schedule).run
  }

  /// Replays `schedule`, and says which choices were open once its own had run out: the ways a
  /// longer schedule could go on from there.
  private func replayTellingWhatWasOpen(_ schedule: Schedule) async -> (run: Run, open: [Choice]) {
    let state = Locked((index: 0, openAfter: [Choice]()))
    let choices = schedule.choices
    let run = await runSchedule { open, ending in
      state.withLock { state in
        let next = state.index < choices.count ? choices[state.index] : nil
        if case .task = open.first {
          // Several tasks are ready: the schedule picks one only where it says so.
          guard case .task? = next else { return .take(.task(1)) }
          state.index += 1
          return open.contains(next!) ? .take(next!) : .invalid(next!)
        }
        if open.first == .nobodyAway {
          // A caller is held where it leaves the actor only where the schedule says so.
          guard case .away? = next else { return .take(.nobodyAway) }
          state.index += 1
          return .take(next!)
        }
        if case .late(let number, _) = open.first {
          // A task started: the schedule holds it back only where it says so.
          guard case .late(number, _)? = next else {
            return .take(.late(task: number, held: false))
          }
          state.index += 1
          return .take(next!)
        }
        defer { state.index += 1 }
        if let next {
          return open.contains(next) ? .take(next) : .invalid(next)
        }
        if state.index == choices.count { state.openAfter = open }
        return ending.map(Step.take) ?? .stop
      }
    }
    return (run, state.value.openAfter)
  }

  /// Whether `run` broke the part of the promise named `rule`.
  private static func breaks(_ run: Run, _ rule: String) -> Bool {
    if case .broken(let broken) = run.verdict { broken.rule == rule } else { false }
  }

  /// Finds a schedule of the fewest steps that still breaks the same part of the promise.
  ///
  /// First it drops choices, one at a time and then two at a time, from anywhere in the schedule,
  /// keeping each drop after which it still breaks that part. Then it looks for a shorter schedule
  /// of other choices: every schedule of fewer steps, shortest first, within a budget of replays,
  /// since a schedule can be shortened by a different choice as well as by fewer of the same.
  private func shrink(_ schedule: Schedule, rule: String) async -> (Schedule, Run)? {
    var current = schedule
    var last: Run?
    var dropped = true
    while dropped {
      dropped = false
      var index = 0
      while index < current.choices.count {
        var candidate = current
        candidate.choices.remove(at: index)
        let run = await replay(candidate)
        if Self.breaks(run, rule) {
          current = candidate
          last = run
          dropped = true
        } else {
          index += 1
        }
      }
      guard !dropped else { continue }
      pairs: for first in current.choices.indices {
        for second in current.choices.indices where second > first {
          var candidate = current
          candidate.choices.remove(at: second)
          candidate.choices.remove(at: first)
          let run = await replay(candidate)
          if Self.breaks(run, rule) {
            current = candidate
            last = run
            dropped = true
            break pairs
          }
        }
      }
    }
    if let shorter = await shortest(breaking: rule, under: current.choices.count) {
      return shorter
    }
    return last.map { (current, $0) }
  }

  /// The first schedule of fewer than `length` steps that breaks `rule`, trying every schedule of
  /// one step, then of two, and so on, in the search's order; `nil` when none does, or when that
  /// takes more than a few hundred replays.
  private func shortest(breaking rule: String, under length: Int) async -> (Schedule, Run)? {
    var budget = 400
    // The schedules of the current length, each with the choices open after it.
    var frontier: [(Schedule, [Choice])] = [(Schedule([]), [])]
    let (_, startOpen) = await replayTellingWhatWasOpen(Schedule([]))
    frontier[0].1 = startOpen
    for _ in 1..<max(1, length) {
      var next: [(Schedule, [Choice])] = []
      for (schedule, open) in frontier {
        for choice in open {
          guard budget > 0 else { return nil }
          budget -= 1
          let candidate = Schedule(schedule.choices + [choice])
          let (run, after) = await replayTellingWhatWasOpen(candidate)
          if Self.breaks(run, rule) { return (candidate, run) }
          next.append((candidate, after))
        }
      }
      frontier = next
    }
    return nil
  }

  private func report(
    _ broken: BrokenPromise, from run: Run, after schedules: Int?, shrunk given: Schedule? = nil
  ) async {
    var schedule = given ?? Schedule(run.choices)
    var shown = run
    var shownBroken = broken
    if given == nil {
      // The full schedule, replayed, must break the promise again before it is shrunk.
      if let (smaller, smallerRun) = await shrink(schedule, rule: broken.rule),
        case .broken(let smallerBroken) = smallerRun.verdict
      {
        schedule = smaller
        shown = smallerRun
        shownBroken = smallerBroken
      }
    }
    let found =
      schedules.map {
        "Schedule \($0) of the exploration broke the promise (\(shownBroken.rule))."
      } ?? "The replayed schedule broke the promise (\(shownBroken.rule))."
    let which =
      given == nil ? "The schedule, shrunk to the steps that still break it" : "The schedule"
    // With no step left, the check fails on the world as `prepare` leaves it, before any call:
    // the schedule that first broke it is the one to read.
    let noStepLeft = schedule.choices.isEmpty && given == nil
    let steps =
      noStepLeft
      ? "none: the promise does not hold even when nobody calls (the schedule that broke it "
        + "first: \(Schedule(run.choices)))"
      : "\(schedule)"
    // A module may hold more than one exploration, and a schedule belongs to the one that
    // printed it: the filter runs that test alone.
    let test = Test.current.map { " --filter \($0.name.prefix { $0 != "(" })" } ?? ""
    // A tool that runs the tests says how it builds them; otherwise the world may know.
    let command =
      ProcessInfo.processInfo.environment["SCHEDULE_EXPLORER_TEST_COMMAND"]
      ?? World.replayCommand ?? "swift test"
    let replay = "SCHEDULE_EXPLORER_REPLAY='\(module): \(schedule)' \(command)\(test)"
    Issue.record(
      Comment(
        rawValue: """
          \(found)
          \(shownBroken.message)
          \(which): \(steps)
          \(Self.legend(for: noStepLeft ? Schedule(run.choices) : schedule))
          \(drawTimeline(shown.events))
          Replay exactly this run: \(replay)
          """), sourceLocation: sourceLocation)
  }

  /// What the kinds of step in `schedule` mean, in one line.
  private static func legend(for schedule: Schedule) -> String {
    var parts: [String] = []
    let choices = schedule.choices
    if choices.contains(where: { if case .start = $0 { true } else { false } }) {
      parts.append("a letter: that caller makes its call")
    }
    if choices.contains(where: { if case .answer(_, nil, _, _) = $0 { true } else { false } }) {
      parts.append("A=outcome: A's waiting request finishes that way")
    }
    if choices.contains(where: { if case .answer(_, .some, _, _) = $0 { true } else { false } }) {
      parts.append("A.key=outcome: A's waiting request for that key finishes that way")
    }
    if choices.contains(where: { if case .answer(_, _, _, true) = $0 { true } else { false } }) {
      parts.append("+hold: and A is held before it resumes")
    }
    if choices.contains(where: { if case .task(let position) = $0 { position > 1 } else { false } })
    {
      parts.append(
        "task:2: of the tasks ready together (`Task {}` bodies), the second to become ready runs "
          + "first; task:1, the oldest")
    }
    if choices.contains(where: { if case .late(_, true) = $0 { true } else { false } }) {
      parts.append(
        "hold:task1: the first task started (by the actor, a cancellation or the world outside) "
          + "waits, as a busy thread pool may keep it; resume:task1 lets it run")
    }
    if choices.contains(where: { if case .away = $0 { true } else { false } }) {
      parts.append(
        "away:A.2: after the step before it, A is held where it leaves the actor for the "
          + "second time since its call, to run code off it, while the others run; resume:A "
          + "lets it go on")
    }
    if choices.contains(where: { if case .hold = $0 { true } else { false } }) {
      parts.append("hold:A: whatever would resume A waits, while the others run")
    }
    if choices.contains(where: { if case .resume = $0 { true } else { false } }) {
      parts.append("resume:A: A may resume")
    }
    if choices.contains(where: { if case .cancel = $0 { true } else { false } }) {
      parts.append("cancel:A: A's task is cancelled")
    }
    var steps: [String] = []
    for case .step(let name) in choices where !steps.contains(name) {
      steps.append(name)
    }
    if !steps.isEmpty {
      parts.append("\(steps.joined(separator: ", ")): what the world outside does next, as named")
    }
    parts.append("then every request still waiting finishes in the usual way")
    return "(" + parts.joined(separator: "; ") + ".)"
  }

  // MARK: One run

  /// What a chooser answers at a settled moment.
  private enum Step {
    case take(Choice)
    /// The schedule is complete.
    case stop
    /// A replayed choice is not open here.
    case invalid(Choice)
    /// The open choices differ from those of an earlier run of the same schedule.
    case diverged(expected: [Choice])
  }

  private struct Run {
    enum Verdict {
      case kept
      /// Cut short: from here on the schedule could only repeat another one.
      case pruned
      case broken(BrokenPromise)
      /// A replayed choice, the one at `step` (counting from 0), is not open there.
      case invalid(step: Int, choice: Choice, why: String, open: [Choice])
      case diverged(String)
    }

    var verdict: Verdict
    var choices: [Choice]
    var events: [Event]
    /// How many times the run asked its chooser, which is more than its choices where it asked
    /// whether to hold a caller where it leaves the actor and nobody was.
    var decisions: Int
  }

  /// Runs one schedule from a fresh world, asking `choose` at every settled moment what happens
  /// next, and checking the promise there and at the end.
  ///
  /// `choose` is given the open choices and, of those, the one that brings a replay to its end the
  /// plainest way, if any.
  ///
  /// With `prunes`, a schedule is cut short as soon as it can only repeat another: when a caller it
  /// held had not become ready to resume once the next choice had run, holding it then changed
  /// nothing, and the schedule that holds it later covers the same runs.
  ///
  /// After each choice at a settled moment, `choose` is also asked whether a caller is held where
  /// it leaves the actor, with only ``Choice/nobodyAway`` open: `reveal` is told, with the number of
  /// that question among all `choose` was asked (from 0), of each ``Choice/away(caller:leaving:)``
  /// the run found worth trying there.
  private func runSchedule(
    prunes: Bool = false, reveal: @escaping @Sendable (Int, Choice) -> Void = { _, _ in },
    _ choose: @escaping @Sendable ([Choice], Choice?) -> Step
  ) async -> Run {
    let scenario = Scenario()
    // A caller the world's `prepare` starts by count must not take the name of one of the calls.
    scenario.keepCallerNames(calls.count)
    let run = await runSchedule(in: scenario, prunes: prunes, reveal: reveal, choose)
    // What the run left held would otherwise run beside the next one, and an actor that outlives
    // the run, such as a `static let` audit log of the student's, would be busy with it there.
    await scenario.windDown()
    return run
  }

  private func runSchedule(
    in scenario: Scenario, prunes: Bool,
    reveal: @escaping @Sendable (Int, Choice) -> Void,
    _ choose: @escaping @Sendable ([Choice], Choice?) -> Step
  ) async -> Run {
    let world = World(scenario)
    let plain = Set(world.fakes.map { $0.requests.outcomes[0] } + [Requests.cancelled])
    // Written from the scheduler's thread too, by the order of ready tasks.
    let progress = Locked((taken: [Choice](), used: Usage(), problem: Run.Verdict?.none))
    var taken: [Choice] { progress.value.taken }
    var used: Usage { progress.value.used }
    // Every question to `choose` is counted, so that a revealed choice finds its place: from
    // here on, `choose` is the given chooser, counting.
    let asked = Locked(0)
    let choose: @Sendable ([Choice], Choice?) -> Step = { open, end in
      asked.withLock { $0 += 1 }
      return choose(open, end)
    }
    let taskOrders = bounds.taskOrders
    Scheduler.shared.setTaskOrder(for: scenario.id) { ready in
      guard progress.value.used.taskOrders < taskOrders, progress.value.problem == nil else {
        return (0, nil)
      }
      let step = choose((1...ready).map(Choice.task), .task(1))
      return progress.withLock { progress in
        switch step {
        case .take(let choice):
          guard case .task(let position) = choice else { return (0, nil) }
          progress.taken.append(choice)
          guard position > 1 else { return (0, nil) }
          progress.used.taskOrders += 1
          let note: @Sendable () -> Void = {
            scenario.recordTestStep("lets ready task \(position) of \(ready) run first")
          }
          return (position - 1, note)
        case .invalid(let choice):
          progress.problem = .invalid(
            step: progress.taken.count, choice: choice,
            why: "only \(ready) tasks were ready together there", open: [])
        case .diverged(let expected):
          progress.problem = .diverged(
            """
            The same schedule gave a different run: after \(Schedule(progress.taken)), \
            \(ready) tasks were ready together, where an earlier run had \(expected.count). Does \
            the actor use a clock, a random number, or a thread of its own?
            """)
        case .stop:
          break
        }
        return (0, nil)
      }
    }
    // Tasks that a world event starts from outside the actor's jobs, and those that the actor
    // starts, numbered from 1 in the order they start; each may be held back, within the bounds.
    let lateStarted = Locked(0)
    if bounds.lateTasks > 0 || bounds.lateTasksOfTheActor > 0 {
      Scheduler.shared.setLateTasks(for: scenario.id) { startedBy in
        let bound =
          startedBy == .worldEvent ? bounds.lateTasks : bounds.lateTasksOfTheActor
        guard bound > 0 else { return nil }
        let number = lateStarted.withLock { count in
          count += 1
          return count
        }
        let used = progress.value.used
        let usedSoFar =
          startedBy == .worldEvent ? used.lateTasks : used.lateTasksOfTheActor
        guard usedSoFar < bound, progress.value.problem == nil else {
          return nil
        }
        let ontime = Choice.late(task: number, held: false)
        let step = choose([ontime, .late(task: number, held: true)], ontime)
        let held: Int? = progress.withLock { progress in
          switch step {
          case .take(let choice):
            progress.taken.append(choice)
            guard case .late(_, true) = choice else { return nil }
            if startedBy == .worldEvent {
              progress.used.lateTasks += 1
            } else {
              progress.used.lateTasksOfTheActor += 1
            }
            return number
          case .invalid(let choice):
            progress.problem = .invalid(
              step: progress.taken.count, choice: choice,
              why: "the task started there is task \(number)", open: [])
          case .diverged(let expected):
            progress.problem = .diverged(
              """
              The same schedule gave a different run: after \(Schedule(progress.taken)), a \
              world event started task \(number), where an earlier run had \
              \(Schedule(expected)). Does the actor use a clock, a random number, or a thread of \
              its own?
              """)
          case .stop:
            break
          }
          return nil
        }
        if let held { scenario.recordTestStep("holds back the task just started (task \(held))") }
        return held
      }
    }
    // A caller whose task leaves the actor may be held there, while the others run. Which
    // leavings are worth holding is learned rather than guessed: the run in which nobody is held
    // comes first, and if a caller, off the actor, then made no request, did not return, and was
    // ready to go on when that job ended, it stepped off to work and is on its way back; holding
    // it there is revealed as a choice. (See "What it prunes" for the leavings left alone.)
    let away = Locked(AwayFromTheActor())
    let fakes = world.fakes
    @Sendable func requestsMade(by name: String) -> Int {
      fakes.reduce(0) { sum, fake in sum + fake.requests.records.count { $0.caller == name } }
    }
    if bounds.holdsOffTheActor > 0 {
      Scheduler.shared.watchLeavings(
        of: scenario.id,
        Scheduler.LeavingWatch(
          hold: { lane, leaving in
            guard let name = scenario.caller(of: lane) else { return false }
            let held = away.withLock { away in
              if let target = away.target, target == (name, leaving) {
                away.target = nil
                return true
              }
              if let question = away.question {
                away.left[Leaving(caller: name, number: leaving)] = (
                  question, requestsMade(by: name)
                )
              }
              return false
            }
            if held {
              scenario.heldWhereItLeft(name)
              let jobs = Scheduler.shared.jobsBegun(of: scenario.id)
              away.withLock { $0.held = (name, jobs) }
            }
            return held
          },
          ran: { lane, leaving in
            guard let name = scenario.caller(of: lane),
              let left = away.withLock({
                $0.left.removeValue(forKey: Leaving(caller: name, number: leaving))
              })
            else { return }
            let returned = scenario.callers.first { $0.name == name }?.hasFinished ?? true
            let cameBack = Scheduler.shared.queuedJobs(on: lane) > 0
            if !returned && cameBack && requestsMade(by: name) == left.requests {
              reveal(left.question, .away(caller: name, leaving: leaving))
            }
          }))
    }
    // A caller just held, and how many settled moments to wait before asking whether the hold
    // kept anything back: none after `A=image+hold`, one after `hold:A`, whose hold only bites
    // with the choice after it.
    var pendingHold: (caller: String, wait: Int)?
    func finish(_ verdict: Run.Verdict) -> Run {
      Scheduler.shared.setTaskOrder(for: scenario.id, nil)
      Scheduler.shared.setLateTasks(for: scenario.id, nil)
      Scheduler.shared.watchLeavings(of: scenario.id, nil)
      spent.withLock { $0 += Scheduler.shared.busyTime(of: scenario.id) }
      return Run(
        verdict: progress.value.problem ?? verdict, choices: taken, events: scenario.events,
        decisions: asked.value)
    }
    do {
      try await world.prepare(scenario)
    } catch {
      return finish(
        .broken(BrokenPromise(rule: "it gets ready", message: "Getting ready failed: \(error)")))
    }
    let named = scenario.callers.map(\.name).filter {
      Self.index(of: $0).map { $0 < calls.count } ?? false
    }
    checkUsage(
      named.isEmpty,
      """
      The world's prepare started a caller named \(named.first ?? ""), a name this exploration \
      gives one of its calls: name the callers started there otherwise, or let them be named by \
      count, which skips the calls' names.
      """)
    while true {
      do {
        try await world.settle(scenario)
      } catch {
        return finish(.broken(BrokenPromise(rule: "it settles", message: "\(error)")))
      }
      if progress.value.problem != nil { return finish(.kept) }
      if let hold = pendingHold {
        if hold.wait > 0 {
          pendingHold?.wait -= 1
        } else {
          pendingHold = nil
          if prunes && scenario.queuedJobs(of: hold.caller) == 0 { return finish(.pruned) }
        }
      }
      let (missed, heldInVain) = away.withLock { away in
        defer { (away.target, away.question, away.held) = (nil, nil, nil) }
        // A caller held where it left the actor, with nothing run since, would go on just as if
        // it had never been held.
        let inVain = away.held.flatMap {
          Scheduler.shared.jobsBegun(of: scenario.id) == $0.jobs ? $0.caller : nil
        }
        return (away.target, inVain)
      }
      if let missed {
        let choice = Choice.away(caller: missed.caller, leaving: missed.leaving)
        let why =
          "\(missed.caller) did not leave the actor for the \(Self.ordinal(missed.leaving)) time "
          + "before the next settled moment"
        return finish(
          prunes
            ? .diverged("The same schedule gave a different run: at `\(choice)`, \(why).")
            : .invalid(step: taken.count - 1, choice: choice, why: why, open: []))
      }
      if let broken = await check(world, in: scenario, isEnd: false) {
        return finish(.broken(broken))
      }
      let open = openChoices(
        world, in: scenario, taken: taken, used: used, heldInVain: heldInVain)
      let ending = Set(world.steps().filter(\.endsTheRun).map(\.name))
      let end = Self.plainestEnding(of: open, plainOutcomes: plain, endingSteps: ending)
      switch choose(open, end) {
      case .take(let choice):
        // Only what is decided at settled moments counts: an actor that starts many tasks makes
        // many picks of the oldest ready task, none of which is a step of the schedule.
        guard taken.count(where: \.isSettledChoice) < bounds.steps else {
          return finish(
            .broken(
              BrokenPromise(
                rule: "it comes to an end",
                message: """
                  After \(bounds.steps) steps the callers had still not all returned: the actor \
                  keeps starting new work.
                  """)))
        }
        progress.withLock { $0.taken.append(choice) }
        // Whether a caller is held where it leaves the actor before the next settled moment.
        if used.holdsOffTheActor < bounds.holdsOffTheActor {
          let question = asked.value
          switch choose([.nobodyAway], .nobodyAway) {
          case .take(.away(let caller, let leaving)):
            progress.withLock {
              $0.taken.append(.away(caller: caller, leaving: leaving))
              $0.used.holdsOffTheActor += 1
            }
            away.withLock { $0.target = (caller, leaving) }
            scenario.recordTestStep(
              "will hold \(caller) where it leaves the actor for the \(Self.ordinal(leaving)) time "
                + "since its call")
          case .take:
            away.withLock { $0.question = question }
          case .diverged(let expected):
            return finish(
              .diverged(
                """
                The same schedule gave a different run: after \(Schedule(taken)), the callers \
                that could be held where they leave the actor were \(Schedule(expected)) in an \
                earlier run. Does the actor use a clock, a random number, or a thread of its own?
                """))
          case .invalid, .stop:
            // Neither answers this question: a replay takes `away:` where its schedule has one.
            break
          }
        }
        // A task that a cancellation handler or a world's callback starts now may start late.
        let reordered =
          switch choice {
          case .cancel, .step:
            Scheduler.asEventOfTheWorld(scenario.id) { apply(choice, to: world, in: scenario) }
          default:
            apply(choice, to: world, in: scenario)
          }
        progress.withLock { $0.used.count(choice, plain: plain, reordered: reordered) }
        switch choice {
        case .hold(let caller): pendingHold = (caller, 1)
        case .answer(let caller?, _, _, true): pendingHold = (caller, 0)
        default: break
        }
      case .stop:
        if let broken = await check(world, in: scenario, isEnd: true) {
          return finish(.broken(broken))
        }
        return finish(.kept)
      case .invalid(let choice):
        let why = whyNotOpen(choice, world, in: scenario, used: used)
        return finish(.invalid(step: taken.count, choice: choice, why: why, open: open))
      case .diverged(let expected):
        return finish(
          .diverged(
            """
            The same schedule gave a different run: after \(Schedule(taken)), the choices open \
            were \(Schedule(open)), where an earlier run had \(Schedule(expected)). Does the \
            actor use a clock, a random number, or a thread of its own?
            """))
      }
    }
  }

  private func check(_ world: World, in scenario: Scenario, isEnd: Bool) async -> BrokenPromise? {
    let callers = scenario.callers
    let moment = Moment(
      world: world, callers: callers, calls: callsByCaller(callers), isEnd: isEnd,
      aTaskIsHeld: !Scheduler.shared.heldLateTasks(of: scenario.id).isEmpty)
    if isEnd {
      for caller in callers where !caller.hasFinished {
        moment.expect(
          false, "every caller returns",
          """
          Caller \(caller.name) never returned from \(caller.operation): when every request had \
          finished, nothing was left that could resume it. Is it waiting for work that waits for \
          it, or for a continuation that nobody resumes?
          """)
      }
    }
    // A caller held on its way into another actor holds that actor: a check that reads through
    // it would wait for the hold to end, so the promise is checked at the next settled moment.
    if isEnd || !Scheduler.shared.holdsAnActor(of: scenario.id) {
      await world.checkPromise(moment)
    }
    return moment.brokenPromises.first
  }

  private func callsByCaller(_ callers: [CallerRecord]) -> [String: World.Call] {
    var calls: [String: World.Call] = [:]
    for caller in callers {
      // A caller that the world's `prepare` started made none of the calls.
      if let index = Self.index(of: caller.name), index < self.calls.count {
        calls[caller.name] = self.calls[index]
      }
    }
    return calls
  }

  /// The choices open at a settled moment, in the fixed order of the search.
  ///
  /// `used` says how much of each bound the schedule has used so far.
  /// `heldInVain` is a caller held where it left the actor since the last settled moment, with
  /// nothing run since then: letting it go now is not a choice.
  private func openChoices(
    _ world: World, in scenario: Scenario, taken: [Choice], used: Usage, heldInVain: String?
  ) -> [Choice] {
    let callers = scenario.callers
    let started = Set(callers.map(\.name))
    var open: [Choice] = []

    // Who calls next. Two callers who would make the same call are interchangeable, so only the
    // first of them may go next.
    var seen: Set<World.Call> = []
    for (index, call) in calls.enumerated() {
      let name = Scenario.callerName(index)
      guard !started.contains(name) else { continue }
      if seen.insert(call).inserted { open.append(.start(caller: name)) }
    }

    open += world.steps().map { .step($0.name) }

    let unusual = used.unusualOutcomes
    let holds = used.holds
    let cancels = used.cancellations
    let records = callers.reduce(into: [String: CallerRecord]()) { $0[$1.name] = $1 }

    let waiting = world.fakes.flatMap { fake in
      let requests = fake.requests
      let numbers = Set(requests.waiting)
      return requests.records.filter { numbers.contains($0.number) }.map { (requests, $0) }
    }
    // Answering a request while an older one still waits is a reordering; a bound on them keeps
    // explorations of many requests small.
    let reorderingsLeft = bounds.reorderings.map { $0 - used.reorderings } ?? .max
    let oldestWaiting = waiting.map(\.1.startedAt).min()
    var offered: Set<Choice> = []
    for (requests, record) in waiting
    where reorderingsLeft > 0 || record.startedAt == oldestWaiting {
      let sameCaller = waiting.count { $0.1.caller == record.caller }
      let key = sameCaller > 1 ? Choice.compact(record.key) : nil
      let windsDown = record.wasCancelled && requests.cancellation != .isIgnored
      if windsDown && bounds.cancelledRequestsEndOldestFirst
        && waiting.contains(where: { other in
          other.0 === requests && other.1.caller == record.caller && other.1.wasCancelled
            && other.1.startedAt < record.startedAt
        })
      {
        continue
      }
      let outcomes =
        (windsDown ? requests.cancelledOutcomes : requests.outcomes).enumerated().filter {
          $0.offset == 0 || unusual < bounds.unusualOutcomes
        }
        .map(\.element)
      let holdable =
        holds < bounds.holds
        && record.caller.flatMap { records[$0] }.map { !$0.hasFinished && !$0.isHeld } ?? false
      for outcome in outcomes {
        for hold in holdable ? [false, true] : [false] {
          let choice = Choice.answer(
            caller: record.caller, key: key, outcome: outcome, hold: hold)
          if offered.insert(choice).inserted { open.append(choice) }
        }
      }
    }

    // Any caller who has not returned can be held, not only one whose own request just finished:
    // one who joined another caller's work resumes when that work ends, and the runtime promises
    // no order among those who resume together, nor how soon each runs.
    let justHeld: String? =
      switch taken.last(where: \.isSettledChoice) {
      case .answer(let caller?, _, _, true)?, .hold(let caller)?: caller
      default: nil
      }
    if holds < bounds.holds {
      open += callers.filter { !$0.hasFinished && !$0.isHeld }.map { .hold(caller: $0.name) }
    }
    if case .hold(let caller)? = taken.last(where: \.isSettledChoice) {
      // `hold:A` then `A=image` is `A=image+hold`, which is already open.
      open.removeAll {
        if case .answer(caller, _, _, _) = $0 { true } else { false }
      }
    }
    // A caller held and let go again at once is no different from one never held, unless nothing
    // else can happen in the gap.
    let resumes =
      callers.filter(\.isHeld).map { Choice.resume(caller: $0.name) }
      + Scheduler.shared.heldLateTasks(of: scenario.id).map(Choice.resumeTask)
    open += resumes.filter {
      $0 != .resume(caller: justHeld ?? "") && $0 != .resume(caller: heldInVain ?? "")
    }
    if cancels < bounds.cancellations {
      open += callers.filter { !$0.hasFinished && !$0.wasCancelled }.map {
        .cancel(caller: $0.name)
      }
    }
    return open.isEmpty ? resumes : open
  }

  /// Why `choice` is not among the open choices, in a few words, for a replay that asks for it.
  private func whyNotOpen(
    _ choice: Choice, _ world: World, in scenario: Scenario, used: Usage
  ) -> String {
    let callers = scenario.callers
    func record(_ name: String) -> CallerRecord? { callers.first { $0.name == name } }
    func unknown(_ name: String) -> String? {
      guard Self.index(of: name).map({ $0 < calls.count }) != true else { return nil }
      let last = Scenario.callerName(calls.count - 1)
      let callers = calls.count == 1 ? "has one caller, A" : "has callers A to \(last)"
      return "this exploration \(callers), and there is no \(name)"
    }
    switch choice {
    case .start(let name):
      if let unknown = unknown(name) { return unknown }
      if record(name) != nil { return "\(name) has already made its call" }
      return
        "\(name) makes the same call as an earlier caller who has not called yet, and goes after it"
    case .answer(let caller, let key, let outcome, let hold):
      let who = caller ?? Choice.unnamed
      let waiting = world.fakes.flatMap { fake in
        fake.requests.waiting.compactMap { fake.requests.record($0) }.map { (fake.requests, $0) }
      }.filter { $0.1.caller == caller }
      guard
        let (requests, _) = waiting.first(where: { entry in
          key.map { Choice.compact(entry.1.key) == $0 } ?? true
        })
      else {
        return waiting.isEmpty
          ? "\(who) has no request waiting" : "\(who) has no request for \(key ?? "") waiting"
      }
      if !requests.outcomes.contains(outcome) && !requests.cancelledOutcomes.contains(outcome) {
        return "a \(requests.noun) cannot end as `\(outcome)`; it knows "
          + (requests.outcomes + requests.cancelledOutcomes).map { "`\($0)`" }.joined(
            separator: ", ")
      }
      if hold && used.holds >= bounds.holds {
        return "this exploration holds a caller at most \(Self.times(bounds.holds)) in a schedule"
      }
      if outcome != requests.outcomes[0] && used.unusualOutcomes >= bounds.unusualOutcomes {
        return "this exploration lets at most \(bounds.unusualOutcomes) requests end other than "
          + "as `\(requests.outcomes[0])` in a schedule"
      }
      return "\(who)'s request cannot end that way at that point"
    case .hold(let name), .cancel(let name):
      if let unknown = unknown(name) { return unknown }
      guard let record = record(name) else { return "\(name) has not called yet" }
      if record.hasFinished { return "\(name) has already returned" }
      if case .hold = choice {
        return record.isHeld
          ? "\(name) is held already"
          : "this exploration holds a caller at most \(Self.times(bounds.holds)) in a schedule"
      }
      return record.wasCancelled
        ? "\(name) was cancelled already"
        : "this exploration cancels at most \(bounds.cancellations) callers in a schedule"
    case .resume(let name):
      return record(name)?.isHeld == true
        ? "\(name) was held a moment ago, and letting it go at once changes nothing"
        : "\(name) is not held"
    case .task:
      return "no two tasks were ready together before it"
    case .late(let number, _):
      return "no task \(number) started just before it"
    case .resumeTask(let number):
      return "task \(number) is not held back"
    case .away(let name, _):
      return used.holdsOffTheActor >= bounds.holdsOffTheActor
        ? "this exploration holds a caller where it leaves the actor at most "
          + "\(Self.times(bounds.holdsOffTheActor)) in a schedule"
        : "a caller is held where it leaves the actor only after a step, not at the start; "
          + "\(name) cannot be held there"
    case .nobodyAway:
      return "it is not a step"
    case .step:
      let steps = world.steps().map(\.name)
      return steps.isEmpty
        ? "the world outside can take no step of its own now"
        : "the world outside can take only " + steps.map { "`\($0)`" }.joined(separator: ", ")
          + " now"
    }
  }

  /// Makes `choice` happen, and answers whether it answered a request while an older one waited.
  private func apply(_ choice: Choice, to world: World, in scenario: Scenario) -> Bool {
    switch choice {
    case .start(let name):
      let call = calls[Self.index(of: name)!]
      _ = scenario.start([name], call.description) { try await world.perform(call) }
    case .answer(let caller, let key, let outcome, let hold):
      let match = world.fakes.lazy.compactMap { fake -> (Requests, Requests.Record)? in
        let requests = fake.requests
        let record = requests.waiting.lazy.compactMap { requests.record($0) }.first { record in
          record.caller == caller && (key.map { Choice.compact(record.key) == $0 } ?? true)
        }
        return record.map { (requests, $0) }
      }.first
      guard let (requests, record) = match else { return false }
      let reordered = world.fakes.contains { fake in
        fake.requests.waiting.lazy.compactMap { fake.requests.record($0) }.contains {
          $0.startedAt < record.startedAt
        }
      }
      if hold, let caller {
        scenario.recordTestStep("holds \(caller) back")
        scenario.setHeld(true, caller)
      }
      requests.release(record.number, as: outcome == Requests.cancelled ? nil : outcome)
      return reordered
    case .hold(let name):
      scenario.recordTestStep("holds \(name) back")
      scenario.setHeld(true, name)
    case .resume(let name):
      scenario.recordTestStep("lets \(name) resume")
      scenario.setHeld(false, name)
    case .cancel(let name):
      scenario.recordTestStep("cancels \(name)")
      scenario.cancel(name)
    case .step(let name):
      world.take(name)
    case .task, .late, .away, .nobodyAway:
      // Taken while the actor runs, or with the step before it, never as a step of its own.
      break
    case .resumeTask(let number):
      scenario.recordTestStep("lets task \(number) run")
      Scheduler.shared.letLateTaskRun(number, of: scenario.id)
    }
    return false
  }

  /// `once`, `twice`, `3 times`, …
  private static func times(_ number: Int) -> String {
    switch number {
    case 1: "once"
    case 2: "twice"
    default: "\(number) times"
    }
  }

  /// `1st`, `2nd`, `3rd`, `4th`, … `11th`, `12th`, `13th`, … `21st`.
  private static func ordinal(_ number: Int) -> String {
    let suffix =
      switch (number % 10, number % 100) {
      case (_, 11...13): "th"
      case (1, _): "st"
      case (2, _): "nd"
      case (3, _): "rd"
      default: "th"
      }
    return "\(number)\(suffix)"
  }

  private static func index(of name: String) -> Int? {
    Scenario.callerIndex(name)
  }

  /// The schedule `SCHEDULE_EXPLORER_REPLAY` asks this module's explorations to replay, written
  /// `ConnectionPoolTests: A B A=opens`.
  private static func replayRequest(for module: String) -> String? {
    guard let request = ProcessInfo.processInfo.environment["SCHEDULE_EXPLORER_REPLAY"],
      let colon = request.firstIndex(of: ":")
    else { return nil }
    let named = request[..<colon].trimmingCharacters(in: .whitespaces)
    guard named == module else { return nil }
    return String(request[request.index(after: colon)...])
  }
}

/// How much of each bound a schedule has used.
private struct Usage {
  var unusualOutcomes = 0
  var holds = 0
  var cancellations = 0
  var reorderings = 0
  /// How many times a ready task other than the oldest ran first.
  var taskOrders = 0
  /// How many tasks that world events started were held back.
  var lateTasks = 0
  /// How many tasks that the actor's work started were held back.
  var lateTasksOfTheActor = 0
  /// How many callers were held where they left the actor to work off it.
  var holdsOffTheActor = 0

  mutating func count(_ choice: Choice, plain: Set<String>, reordered: Bool) {
    switch choice {
    case .answer(_, _, let outcome, let hold):
      if !plain.contains(outcome) { unusualOutcomes += 1 }
      if hold { holds += 1 }
      if reordered { reorderings += 1 }
    case .hold: holds += 1
    case .cancel: cancellations += 1
    case .start, .resume, .step, .task, .late, .resumeTask, .away, .nobodyAway: break
    }
  }
}

extension Exploration {
  /// What a replay that has run out of choices does next: a held caller resumes, else a waiting
  /// request finishes in the plain way, else the world takes a step that ends the run.
  fileprivate static func plainestEnding(
    of open: [Choice], plainOutcomes: Set<String>, endingSteps: Set<String>
  ) -> Choice? {
    let resume = open.first {
      switch $0 {
      case .resume, .resumeTask: true
      default: false
      }
    }
    let answer = open.first {
      if case .answer(_, _, let outcome, false) = $0 {
        plainOutcomes.contains(outcome)
      } else {
        false
      }
    }
    let step = open.first {
      if case .step(let name) = $0 { endingSteps.contains(name) } else { false }
    }
    return resume ?? answer ?? step
  }
}

/// How far an exploration goes. Each bound keeps the count of schedules in the hundreds or low
/// thousands; the defaults suit three callers.
public struct ExplorationBounds: Sendable {
  /// How many requests of one schedule may finish in a way other than their fake's default, such
  /// as a failure or a rejection.
  public var unusualOutcomes: Int
  /// How many times one schedule may hold a caller at a settled moment: in the gap after its
  /// request finished (`A=image+hold`), or wherever it is (`hold:A`).
  public var holds: Int
  /// How many times one schedule may hold a caller where its task leaves the actor to work off
  /// it, such as in a `@concurrent` function, in another actor or in a child task (`async let`,
  /// a task group), while the others run (`away:A.1`).
  ///
  /// What a caller leaves the actor for is only known once it has left: so every leaving first
  /// goes on, and only if the caller, off the actor, then made no request, did not return, and was
  /// ready to go on once that work was done, does the explorer also try holding it there. A
  /// leaving on the way to a request is not held, since a waiting request already lets the others
  /// run; nor is one on the way back to its own caller, since the caller is done with the actor;
  /// nor one after which the caller waits, as for a stream's next element. So this bound costs
  /// nothing where the actor never steps off to work. A caller is held where its own task leaves
  /// an actor, or waits off it for a child task; not where a child task leaves an actor on its
  /// own, since holding the child would hold the caller and all its children, which share its
  /// lane.
  public var holdsOffTheActor: Int
  /// How many callers one schedule may cancel.
  public var cancellations: Int
  /// How many times one schedule may answer a request while an older one still waits; `nil`
  /// for no bound. Chapters about the order of answers need it unbounded; chapters with many
  /// requests of one caller bound it.
  public var reorderings: Int?
  /// How many times one schedule may let a ready task other than the oldest run first, where
  /// several tasks that no caller runs in its own lane (`Task {}` bodies) are ready together.
  public var taskOrders: Int
  /// How many tasks one schedule may hold back, of those that a cancellation or a step of the
  /// world's own starts from outside the actor's jobs (a `Task {}` in a cancellation handler or
  /// in a callback). The runtime starts such a task whenever a thread of its pool is free, so it
  /// may start after the actor has taken other calls; held, it waits until a later settled
  /// moment lets it run.
  public var lateTasks: Int
  /// How many tasks one schedule may hold back, of those that the actor's own work starts: a
  /// `Task {}`, a `Task.detached`, an `async let` or a task group's child, created by the actor
  /// or by a task it started. The runtime starts such a task whenever it gets to it, so the actor
  /// may take other calls before the task has begun, or while it runs; held, it waits until a
  /// later settled moment lets it run, which gives the other callers that moment. It multiplies
  /// the schedules of an actor that starts a task for each download: one such task took chapter
  /// 02's exploration from 684 schedules to 4382. ``Scenario/holdNewTasks()`` holds
  /// them in one scripted moment instead.
  public var lateTasksOfTheActor: Int
  /// Whether the cancelled requests of one caller that wind down (``Requests/Cancellation``) end
  /// in the order they started, rather than in every order. A world whose caller cancels several
  /// requests at once sets it to keep the schedules few; the requests still wind down at any
  /// moment, among the other choices.
  public var cancelledRequestsEndOldestFirst: Bool
  /// The most steps one schedule may take before the actor counts as never coming to an end:
  /// choices made at settled moments, not the order of ready tasks.
  public var steps: Int
  /// The most schedules one exploration runs.
  public var schedules: Int

  /// Bounds that suit three callers; a world changes only what it needs.
  public init(
    unusualOutcomes: Int = 1, holds: Int = 1, holdsOffTheActor: Int = 1, cancellations: Int = 0,
    reorderings: Int? = nil,
    taskOrders: Int = 1, lateTasks: Int = 0, lateTasksOfTheActor: Int = 0,
    cancelledRequestsEndOldestFirst: Bool = false,
    steps: Int = 60, schedules: Int = 20_000
  ) {
    self.taskOrders = taskOrders
    self.lateTasks = lateTasks
    self.lateTasksOfTheActor = lateTasksOfTheActor
    self.cancelledRequestsEndOldestFirst = cancelledRequestsEndOldestFirst
    self.unusualOutcomes = unusualOutcomes
    self.holds = holds
    self.holdsOffTheActor = holdsOffTheActor
    self.cancellations = cancellations
    self.reorderings = reorderings
    self.steps = steps
    self.schedules = schedules
  }
}

/// One time a caller's task left the actor: the caller, and which of its leavings it was.
private struct Leaving: Hashable {
  let caller: String
  let number: Int
}

/// What a run knows of callers held where they leave the actor, between two settled moments.
private struct AwayFromTheActor {
  /// The leaving the schedule holds before the next settled moment, if any.
  var target: (caller: String, leaving: Int)?
  /// Where nobody is held: the number of the question that chose so, to reveal the leavings
  /// worth holding to.
  var question: Int?
  /// The leavings seen where nobody is held, not yet known to be worth holding: the question,
  /// and how many requests the caller had made when it left.
  var left: [Leaving: (question: Int, requests: Int)] = [:]
  /// The caller held since the last settled moment, and how many jobs had begun then.
  var held: (caller: String, jobs: Int)?
}
