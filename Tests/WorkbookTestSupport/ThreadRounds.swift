import Foundation
import ScheduleExplorer

/// How often the course's suites repeat a meeting of threads, and whether this run is the one
/// under the Thread Sanitizer.
extension OtherThreads {
  /// How many times a test repeats a meeting of threads: in a plain run, a few, since a plain
  /// run sees a race only when it bites; under the Thread Sanitizer, which can report a race in any
  /// round but may miss it in one, many more, which cost it a fraction of a second.
  public static var rounds: Int { areSanitized ? 100 : 20 }

  /// Whether this run is `Scripts/check-threads`'s, built with the Thread Sanitizer: a test that
  /// runs its threads in a process of its own, to survive a crash, can run them in place then,
  /// since that run is a process of its own already.
  public static var areSanitized: Bool {
    ProcessInfo.processInfo.environment["WORKBOOK_SANITIZER"] == "thread"
  }
}
