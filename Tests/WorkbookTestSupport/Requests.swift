/// The requests that reach one fake: numbered, counted per key, and held until the test lets them
/// finish.
///
/// Every fake in the workbook is built on this, so that "how many downloads", "how many were in
/// flight together" and "which were cancelled" are answered the same way in every chapter.
public final class Requests: Sendable {
  private struct State {
    var started = 0
    var finished = 0
    var perKey: [String: Int] = [:]
    var inFlight = 0
    var mostInFlight = 0
    var isOpen = false
    var keys: [Int: String] = [:]
    var executors: [Int: UnownedTaskExecutor] = [:]
    var released: Set<Int> = []
    var waiting: [Int: Answer] = [:]
    var cancelled: Set<Int> = []
    var cancelledRequestsWaitForRelease = false
  }

  /// What a request is called in messages, such as "download" or "fetch".
  public let noun: String
  private let scenario: Scenario
  private let state = Locked(State())

  /// How a request names its key, as in "download #1 *of* cat.png" or "refresh #1 *with* refresh-0".
  private let preposition: String

  public init(noun: String, preposition: String = "of", scenario: Scenario) {
    self.noun = noun
    self.preposition = preposition
    self.scenario = scenario
  }

  public var started: Int { state.value.started }
  public var finished: Int { state.value.finished }
  public var inFlight: Int { state.value.inFlight }
  public var mostInFlight: Int { state.value.mostInFlight }
  public var cancelled: Set<Int> { state.value.cancelled }

  /// Whether a request whose task is cancelled keeps waiting until the test releases it, and only
  /// then throws `CancellationError`, as a network stack does when a cancelled transfer takes a
  /// while to wind down. By default a cancelled request throws at once.
  public var cancelledRequestsWaitForRelease: Bool {
    get { state.value.cancelledRequestsWaitForRelease }
    set { state.withLock { $0.cancelledRequestsWaitForRelease = newValue } }
  }

  public func started(for key: String) -> Int {
    state.value.perKey[key, default: 0]
  }

  /// The key that request `number` was made for.
  public func key(of number: Int) -> String? {
    state.value.keys[number]
  }

  /// Whether a request is waiting that was made within caller `name` (its task or a child task),
  /// rather than by a `Task {}` it created, which inherits the caller's name but not its executor.
  public func isWaiting(within name: String) -> Bool {
    let state = state.value
    return state.waiting.keys.contains { scenario.isWithin(state.executors[$0], caller: name) }
  }

  /// The requests that are waiting for the test, in the order they started.
  public var waiting: [Int] {
    state.value.waiting.keys.sorted()
  }

  /// Records a request for `key`, waits until the test lets it finish, then answers it with
  /// `respond`, which is given the request's number (counting from 1) and says what the answer was.
  ///
  /// The answer is worked out at the moment the test releases the request, as a server would when
  /// it handles it, even if the task that asked cannot resume yet. If the task is cancelled while
  /// the request waits, the request throws `CancellationError`, as `URLSession` does.
  public func perform<Response: Sendable>(
    for key: String,
    respond: @escaping @Sendable (_ number: Int) throws -> (response: Response, summary: String)
  ) async throws -> Response {
    let number = state.withLock { state in
      state.started += 1
      state.keys[state.started] = key
      state.executors[state.started] = currentTaskExecutor()
      state.perKey[key, default: 0] += 1
      state.inFlight += 1
      state.mostInFlight = max(state.mostInFlight, state.inFlight)
      return state.started
    }
    let caller = CurrentCaller.name
    let name = "\(noun) #\(number) \(preposition) \(key)"
    scenario.record(.requestStarted(name))
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let answer: Answer = { cancelled in
          self.finish(number)
          guard !cancelled else {
            return { continuation.resume(throwing: CancellationError()) }
          }
          do {
            let (response, summary) = try respond(number)
            self.scenario.record(.requestFinished("\(self.noun) #\(number) \(summary)"), by: caller)
            return { continuation.resume(returning: response) }
          } catch {
            let failure = "\(self.noun) #\(number) fails: \(describe(error))"
            self.scenario.record(.requestFinished(failure), by: caller)
            return { continuation.resume(throwing: error) }
          }
        }
        let now: Bool? = state.withLock { state in
          let cancelled = state.cancelled.contains(number)
          if cancelled && !state.cancelledRequestsWaitForRelease { return true }
          if state.isOpen || state.released.contains(number) { return cancelled }
          state.waiting[number] = answer
          return nil
        }
        if let cancelled = now { answer(cancelled)() }
      }
    } onCancel: {
      let answer = state.withLock { state in
        state.cancelled.insert(number)
        return state.cancelledRequestsWaitForRelease
          ? nil : state.waiting.removeValue(forKey: number)
      }
      scenario.record(.requestCancelled(name), by: caller)
      answer?(true)()
    }
  }

  /// Answers a waiting request (`cancelled` when its task was cancelled) and hands back what
  /// resumes the task that made it. Answering and resuming are two steps so that `open()` can
  /// answer every request before any caller runs on: the timeline then reads the same every run.
  private typealias Answer = @Sendable (_ cancelled: Bool) -> @Sendable () -> Void

  private func finish(_ number: Int) {
    state.withLock { state in
      state.inFlight -= 1
      state.finished += 1
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
        ($0.value, state.cancelled.contains($0.key))
      }
    }
    let resumptions = waiting.map { answer, cancelled in answer(cancelled) }
    for resume in resumptions {
      resume()
    }
  }

  /// Lets request `number` finish, now if it is waiting or as soon as it starts; the others keep
  /// waiting.
  public func release(_ number: Int) {
    scenario.recordTestStep("lets \(noun) #\(number) finish")
    let (answer, cancelled) = state.withLock { state in
      state.released.insert(number)
      return (state.waiting.removeValue(forKey: number), state.cancelled.contains(number))
    }
    answer?(cancelled)()
  }
}
