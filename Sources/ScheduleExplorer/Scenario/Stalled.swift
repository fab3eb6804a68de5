/// Thrown when a caller can no longer make progress: it has not returned, and nothing is left that
/// could resume it, so waiting longer would only hang the run.
///
/// Like ``TimeLimitExceeded``, it is a failure of its own, usually a deadlock, and never counts as
/// the chapter's expected bug in the self-check.
public struct Stalled: Error, CustomStringConvertible {
  /// What the caller was waiting for, why nothing could resume it, and the timeline.
  public let description: String

  init(_ message: String, in scenario: Scenario) {
    let waiting = scenario.requestLogs.flatMap { log in
      log.records.filter { !$0.isAnswered }.map { log.name(of: $0) }
    }
    let held = scenario.callers.filter(\.isHeld).map(\.name)
    var reasons: [String] = []
    if !waiting.isEmpty {
      reasons.append("still waiting for the test: \(waiting.joined(separator: ", "))")
    }
    if !held.isEmpty {
      reasons.append("held back by the test: caller \(held.joined(separator: ", "))")
    }
    let why =
      reasons.isEmpty
      ? """
      Nothing was left that could resume it: no request was waiting in a fake, and no other work \
      was running. Is it waiting for work that waits for it, such as a task that awaits its own \
      value, or a continuation that is never resumed?
      """
      : "When everything else had settled, these were \(reasons.joined(separator: "; "))."
    description = "\(message) \(why)\n\(drawTimeline(scenario.events))"
  }
}
