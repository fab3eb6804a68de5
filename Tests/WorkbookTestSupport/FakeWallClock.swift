import Foundation
import ScheduleExplorer
import Services

/// A ``WallClock`` that stands still until the test moves it on, from 1 January 2030.
///
/// What ``WallClock`` documents, and how this fake does it:
/// - "The time of day, as the app reads it": a time that moves only when the test calls
///   ``advance(by:)``.
public final class FakeWallClock: WallClock {
  private let time = Locked(Date(timeIntervalSince1970: 1_893_456_000))
  private let scenario: Scenario

  public init(_ scenario: Scenario) {
    self.scenario = scenario
  }

  public var now: Date { time.value }

  /// Moves the clock on by `seconds`, as the timeline says.
  public func advance(by seconds: TimeInterval) {
    time.withLock { $0 += seconds }
    scenario.note("moves the clock on by \(Int(seconds)) s")
  }
}
