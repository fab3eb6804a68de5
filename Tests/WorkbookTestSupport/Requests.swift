/// The requests that reach one fake: numbered, counted per key, and held until the test lets them
/// finish.
///
/// Every fake in the workbook is built on this, so that "how many downloads", "how many were in
/// flight together" and "which were cancelled" are answered the same way in every chapter.
final class Requests: Sendable {
  private struct State {
    var started = 0
    var finished = 0
    var perKey: [String: Int] = [:]
    var inFlight = 0
    var mostInFlight = 0
    var isOpen = false
    var waiting: [Int: CheckedContinuation<Void, any Error>] = [:]
    var cancelled: Set<Int> = []
  }

  /// What a request is called in messages, such as "download" or "fetch".
  let noun: String
  private let scenario: Scenario
  private let state = Locked(State())

  init(noun: String, scenario: Scenario) {
    self.noun = noun
    self.scenario = scenario
  }

  var started: Int { state.value.started }
  var finished: Int { state.value.finished }
  var inFlight: Int { state.value.inFlight }
  var mostInFlight: Int { state.value.mostInFlight }
  var cancelled: Set<Int> { state.value.cancelled }

  func started(for key: String) -> Int {
    state.value.perKey[key, default: 0]
  }

  /// Records a request for `key` and suspends until the test opens the gate (or the requesting
  /// task is cancelled), then hands back the request's number, counting from 1.
  func perform(for key: String) async throws -> Int {
    let number = state.withLock { state in
      state.started += 1
      state.perKey[key, default: 0] += 1
      state.inFlight += 1
      state.mostInFlight = max(state.mostInFlight, state.inFlight)
      return state.started
    }
    let name = "\(noun) #\(number) of \(key)"
    scenario.record(.requestStarted(name))
    defer {
      state.withLock { state in
        state.inFlight -= 1
        state.finished += 1
      }
      scenario.checkWaiters()
    }
    do {
      try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
          let proceed: Result<Void, any Error>? = state.withLock { state in
            if state.cancelled.contains(number) { return .failure(CancellationError()) }
            if state.isOpen { return .success(()) }
            state.waiting[number] = continuation
            return nil
          }
          if let proceed { continuation.resume(with: proceed) }
        }
      } onCancel: {
        let continuation = state.withLock { state in
          state.cancelled.insert(number)
          return state.waiting.removeValue(forKey: number)
        }
        continuation?.resume(throwing: CancellationError())
      }
    } catch {
      scenario.record(.requestCancelled(name))
      throw error
    }
    return number
  }

  /// Lets every waiting request finish, in the order they started, and every later one pass
  /// straight through.
  func open() {
    scenario.recordTestStep("lets every \(noun) finish")
    let waiting = state.withLock { state in
      state.isOpen = true
      defer { state.waiting = [:] }
      return state.waiting.sorted { $0.key < $1.key }.map(\.value)
    }
    for continuation in waiting {
      continuation.resume()
    }
  }

  /// Records what request `number` handed back, for the timeline.
  func recordOutcome(of number: Int, _ outcome: String) {
    scenario.record(.requestFinished("\(noun) #\(number) \(outcome)"))
  }
}
