/// The requests that reach one fake: numbered, counted per key, and held until the test lets them
/// finish, with what each was answered.
///
/// A fake built on this answers "how many downloads", "how many were in flight together" and
/// "which were cancelled" the way every other fake does, and lets the explorer answer any waiting
/// request in any of the ways the fake knows.
public final class Requests: Sendable {
  /// One request, as the fake saw it, on the scenario's clock.
  public struct Record: Sendable {
    /// Counting from 1, in the order requests started.
    public let number: Int
    /// What it was for, such as `cat.png` or `profile`.
    public let key: String
    /// The caller whose work made it: its own task, a child task, or a task it created, also with
    /// `Task.detached` (see ``CurrentCaller/name``). `nil` for work that no caller started.
    public let caller: String?
    /// When it started, on the scenario's clock.
    public let startedAt: Int
    /// When the test let it finish, on the scenario's clock; `nil` while it waits.
    public internal(set) var answeredAt: Int?
    /// The outcome it was answered with, one of ``Requests/outcomes``, or `cancelled`.
    public internal(set) var outcome: String?
    /// When its task was cancelled while it waited, if it was.
    public internal(set) var cancelledAt: Int?
    /// Whether it ended by throwing: a failure, a rejection, or its task's cancellation.
    public internal(set) var threw = false

    /// Whether the test has let it finish.
    public var isAnswered: Bool { answeredAt != nil }
    /// Whether its task was cancelled while it waited.
    public var wasCancelled: Bool { cancelledAt != nil }
    /// Still waiting for its answer.
    public var isInFlight: Bool { answeredAt == nil }
  }

  /// The outcome a cancelled request ends with.
  public static let cancelled = "cancelled"

  /// What a request does when the task that made it is cancelled while it waits.
  public enum Cancellation: Sendable {
    /// It throws `CancellationError` at once, as a `URLSession` task ends at once when cancelled
    /// (`URLSession` throws `URLError.cancelled`; the fakes keep to Swift's own error).
    case throwsAtOnce
    /// It keeps waiting until the test releases it, and then throws `CancellationError`, as a
    /// transfer does that takes a while to wind down.
    case windsDown
    /// It goes on as if nothing happened, and answers normally when the test releases it, as a
    /// backend does that has already started on the request; the cancellation is still recorded.
    case isIgnored
  }

  private struct State {
    var records: [Record] = []
    var perKey: [String: Int] = [:]
    var mostInFlight = 0
    var isOpen = false
    var released: [Int: String?] = [:]
    var waiting: [Int: Answer] = [:]
    var cancellation = Cancellation.throwsAtOnce
    /// The ways a cancelled request may end besides `cancelled`, each with the error it throws.
    /// Each with the outcome of the work the other side did first, if it did any.
    var otherCancellations:
      [(outcome: String, error: @Sendable () -> any Error, doneFirst: String?)] = []
    var defaultOutcome: String
  }

  /// What a request is called in messages, such as "download" or "fetch".
  public let noun: String
  /// How a request names its key, as in "download #1 *of* cat.png" or "refresh #1 *with* refresh-0".
  private let preposition: String
  /// The ways the fake can answer a request, such as `image`, `error` and `garbage`.
  public let outcomes: [String]
  private let scenario: Scenario
  private let state: Locked<State>

  /// - Parameter outcomes: the ways the fake can answer; the first is the default.
  public init(noun: String, preposition: String = "of", outcomes: [String], scenario: Scenario) {
    checkUsage(!outcomes.isEmpty, "a fake answers in at least one way")
    self.noun = noun
    self.preposition = preposition
    self.outcomes = outcomes
    self.scenario = scenario
    state = Locked(State(defaultOutcome: outcomes[0]))
    scenario.register(self)
  }

  /// Every request so far, in the order they started.
  public var records: [Record] { state.value.records }
  /// How many requests have started.
  public var started: Int { state.value.records.count }
  /// How many requests have been answered.
  public var finished: Int { state.value.records.count(where: \.isAnswered) }
  /// How many requests have started and are not yet answered.
  public var inFlight: Int { state.value.records.count(where: \.isInFlight) }
  /// The most requests that were in flight at the same moment.
  public var mostInFlight: Int { state.value.mostInFlight }
  /// The numbers of the requests whose task was cancelled while they waited.
  public var cancelled: Set<Int> {
    Set(state.value.records.filter(\.wasCancelled).map(\.number))
  }

  /// How requests that the test releases without naming an outcome are answered.
  public var defaultOutcome: String {
    get { state.value.defaultOutcome }
    set {
      checkUsage(outcomes.contains(newValue), "\(noun) has no outcome \(newValue)")
      state.withLock { $0.defaultOutcome = newValue }
    }
  }

  /// Whether a request whose task is cancelled keeps waiting until the test releases it, and only
  /// then throws `CancellationError`, as a network stack does when a cancelled transfer takes a
  /// while to wind down. By default a cancelled request throws at once.
  public var cancelledRequestsWaitForRelease: Bool {
    get { state.value.cancellation == .windsDown }
    set { state.withLock { $0.cancellation = newValue ? .windsDown : .throwsAtOnce } }
  }

  /// What a request does when the task that made it is cancelled while it waits.
  public var cancellation: Cancellation {
    get { state.value.cancellation }
    set { state.withLock { $0.cancellation = newValue } }
  }

  /// The ways a request whose task was cancelled may end, when the test lets it wind down:
  /// ``cancelled``, throwing `CancellationError`, and those added with
  /// ``mayEndCancelled(as:throwing:)``.
  public var cancelledOutcomes: [String] {
    [Self.cancelled] + state.value.otherCancellations.map(\.outcome)
  }

  /// Lets a request whose task was cancelled also end as `outcome`, throwing `error()` instead of
  /// `CancellationError`, as a client built on `URLSession` throws `URLError(.cancelled)`. A
  /// request that throws at once when cancelled still throws `CancellationError`; one that winds
  /// down ends in whichever of ``cancelledOutcomes`` the test chooses when it releases it.
  ///
  /// With `doneFirst`, one of ``outcomes``, the other side had already handled the request that
  /// way, as a server that got the request before the cancellation did, and only its answer is
  /// lost: the fake's `respond` runs for it, and the request then throws `error()`. A request
  /// whose task was not cancelled, released as `outcome`, ends as `doneFirst`.
  public func mayEndCancelled(
    as outcome: String, throwing error: @escaping @Sendable () -> any Error,
    afterItWasHandledAs doneFirst: String? = nil
  ) {
    checkUsage(!outcomes.contains(outcome), "\(noun) already has an outcome \(outcome)")
    checkUsage(
      doneFirst.map(outcomes.contains) ?? true, "\(noun) has no outcome \(doneFirst ?? "")")
    state.withLock { $0.otherCancellations.append((outcome, error, doneFirst)) }
  }

  /// The error a cancelled request that ends as `outcome` throws.
  private func cancellationError(for outcome: String) -> any Error {
    state.value.otherCancellations.first { $0.outcome == outcome }?.error() ?? CancellationError()
  }

  /// How the other side handled a request that ends as `outcome` before its answer was lost, if
  /// `outcome` is one such.
  private func handledFirst(as outcome: String) -> String? {
    state.value.otherCancellations.first { $0.outcome == outcome }?.doneFirst
  }

  /// How many requests for `key` have started.
  public func started(for key: String) -> Int {
    state.value.perKey[key, default: 0]
  }

  /// The key that request `number` was made for.
  public func key(of number: Int) -> String? {
    record(number)?.key
  }

  /// Request `number` (from 1), if it has started.
  public func record(_ number: Int) -> Record? {
    let records = state.value.records
    return records.indices.contains(number - 1) ? records[number - 1] : nil
  }

  /// The requests that are waiting for the test, in the order they started.
  public var waiting: [Int] {
    state.value.waiting.keys.sorted()
  }

  /// How request `record` reads in a message: `download #2 of cat.png`.
  public func name(of record: Record) -> String {
    "\(noun) #\(record.number) \(preposition) \(record.key)"
  }

  /// Records a request for `key`, waits until the test lets it finish, then answers it with
  /// `respond`, which is given the request's number (counting from 1) and the outcome the test
  /// chose, one of ``outcomes``, and says what the answer was.
  ///
  /// The answer is worked out at the moment the test releases the request, as a server would when
  /// it handles it, even if the task that asked cannot resume yet. If the task is cancelled while
  /// the request waits, the request throws `CancellationError` at once (see ``Cancellation``).
  public func perform<Response: Sendable>(
    for key: String,
    respond:
      @escaping @Sendable (_ number: Int, _ outcome: String) throws -> (
        response: Response, summary: String
      )
  ) async throws -> Response {
    let caller = CurrentCaller.name
    let startedAt = scenario.tick()
    let number = state.withLock { state in
      let number = state.records.count + 1
      state.records.append(Record(number: number, key: key, caller: caller, startedAt: startedAt))
      state.perKey[key, default: 0] += 1
      state.mostInFlight = max(state.mostInFlight, state.records.count(where: \.isInFlight))
      return number
    }
    let name = "\(noun) #\(number) \(preposition) \(key)"
    scenario.record(.requestStarted(name))
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let answer: Answer = { cancelled, chosen in
          let outcome =
            cancelled
            ? chosen.flatMap { self.cancelledOutcomes.contains($0) ? $0 : nil } ?? Self.cancelled
            : chosen.map { self.handledFirst(as: $0) ?? $0 } ?? self.defaultOutcome
          self.finish(number, outcome: outcome)
          guard !cancelled else {
            self.state.withLock { $0.records[number - 1].threw = true }
            let error = self.cancellationError(for: outcome)
            if let handled = self.handledFirst(as: outcome) {
              let what =
                (try? respond(number, handled)).map { "\(self.noun) #\(number) \($0.summary)" }
                ?? "\(self.noun) #\(number) was handled"
              self.scenario.record(
                .requestFinished("\(what), but its answer is lost: \(describe(error))"), by: caller)
            }
            return { continuation.resume(throwing: error) }
          }
          do {
            let (response, summary) = try respond(number, outcome)
            self.scenario.record(.requestFinished("\(self.noun) #\(number) \(summary)"), by: caller)
            return { continuation.resume(returning: response) }
          } catch {
            self.state.withLock { $0.records[number - 1].threw = true }
            let failure = "\(self.noun) #\(number) fails: \(describe(error))"
            self.scenario.record(.requestFinished(failure), by: caller)
            return { continuation.resume(throwing: error) }
          }
        }
        let now: (cancelled: Bool, outcome: String?)? = state.withLock { state in
          let cancelled =
            state.records[number - 1].wasCancelled && state.cancellation != .isIgnored
          if cancelled && state.cancellation == .throwsAtOnce { return (true, nil) }
          if let outcome = state.released[number] { return (cancelled, outcome) }
          if state.isOpen { return (cancelled, nil) }
          state.waiting[number] = answer
          return nil
        }
        if let (cancelled, outcome) = now { answer(cancelled, outcome)() }
      }
    } onCancel: {
      let cancelledAt = scenario.tick()
      let answer = state.withLock { state in
        state.records[number - 1].cancelledAt = cancelledAt
        return state.cancellation == .throwsAtOnce
          ? state.waiting.removeValue(forKey: number) : nil
      }
      scenario.record(.requestCancelled(name), by: caller)
      if let answer {
        let resume = answer(true, nil)
        scenario.step(resume)
      }
    }
  }

  /// Answers a waiting request (`cancelled` when its task was cancelled) with the outcome the test
  /// chose (`nil`: the default), and hands back what resumes the task that made it. Answering and
  /// resuming are two steps so that `open()` can answer every request before any caller runs on:
  /// the timeline then reads the same every run.
  private typealias Answer =
    @Sendable (_ cancelled: Bool, _ outcome: String?) -> @Sendable () -> Void

  private func finish(_ number: Int, outcome: String) {
    let answeredAt = scenario.tick()
    state.withLock { state in
      state.records[number - 1].answeredAt = answeredAt
      state.records[number - 1].outcome = outcome
    }
    scenario.checkWaiters()
  }

  /// Lets every waiting request finish, in the order they started, and every later one pass
  /// straight through.
  public func open() {
    scenario.recordTestStep("lets every \(noun) finish")
    let waiting = state.withLock { state in
      state.isOpen = true
      defer { state.waiting = [:] }
      return state.waiting.sorted { $0.key < $1.key }.map {
        ($0.value, state.records[$0.key - 1].wasCancelled && state.cancellation != .isIgnored)
      }
    }
    let resumptions = waiting.map { answer, cancelled in answer(cancelled, nil) }
    scenario.step {
      for resume in resumptions {
        resume()
      }
    }
  }

  /// Undoes ``open()``: requests that start from now on wait for the test again.
  public func close() {
    scenario.recordTestStep("holds every new \(noun) again")
    state.withLock { $0.isOpen = false }
  }

  /// Lets request `number` finish with `outcome` (`nil`: the default), now if it is waiting or as
  /// soon as it starts; the others keep waiting. A request whose task was cancelled ends as one of
  /// ``cancelledOutcomes`` (`nil`, or an outcome that is not one of them: ``cancelled``).
  public func release(_ number: Int, as outcome: String? = nil) {
    checkUsage(
      outcome.map { outcomes.contains($0) || cancelledOutcomes.contains($0) } ?? true,
      "\(noun) has no outcome \(outcome!)")
    let (answer, cancelled, started) = state.withLock { state in
      state.released[number] = .some(outcome)
      return (
        state.waiting.removeValue(forKey: number),
        state.records.indices.contains(number - 1) && state.records[number - 1].wasCancelled
          && state.cancellation != .isIgnored,
        state.records.indices.contains(number - 1)
      )
    }
    let how =
      cancelled
      ? "wind down" + (outcome.map { cancelledOutcomes.contains($0) ? " (\($0))" : "" } ?? "")
      : outcome.map { "finish (\($0))" } ?? "finish"
    // A timeline that said "lets request #2 finish" where no request #2 had started would show
    // the test answering a request that the code under test never made.
    scenario.recordTestStep("lets \(noun) #\(number) \(how)\(started ? "" : " once it starts")")
    if let answer {
      let resume = answer(cancelled, outcome)
      scenario.step(resume)
    }
  }
}
