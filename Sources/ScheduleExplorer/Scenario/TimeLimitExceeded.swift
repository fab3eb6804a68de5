/// Thrown when a test waited longer than the scenario's time limit for the actor under test.
///
/// A reentrancy bug makes callers get the wrong answer quickly; a caller that never answers is a
/// different bug, usually a deadlock, so it is reported as its own failure and never counts as the
/// chapter's expected bug in the self-check.
public struct TimeLimitExceeded: Error, CustomStringConvertible {
  /// What the test waited for, and the timeline up to then.
  public let description: String

  init(_ message: String, events: [Event]) {
    description = "\(message)\n\(drawTimeline(events))"
  }
}
