import Foundation

/// Where explorations say how much they explored, for a tool that reports on many test runs.
///
/// When `SCHEDULE_EXPLORER_LOG` names a file, every exploration appends one line to it: the test's
/// module, the number of schedules, the seconds they took, the number of callers and how many of
/// the schedules were pruned, separated by tabs. Without it, nothing is written.
enum ExplorationLog {
  private static let lock = NSLock()

  static func append(module: String, schedules: Int, seconds: Double, calls: Int, pruned: Int) {
    guard let path = ProcessInfo.processInfo.environment["SCHEDULE_EXPLORER_LOG"] else {
      return
    }
    let seconds = String(format: "%.3f", seconds)
    let line = "\(module)\t\(schedules)\t\(seconds)\t\(calls)\t\(pruned)\n"
    lock.lock()
    defer { lock.unlock() }
    // Several test processes may write to one log. With O_APPEND, POSIX puts each write at the
    // end of the file, with nothing written in between, so no line overwrites another.
    let file = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
    guard file >= 0 else { return }
    defer { close(file) }
    let bytes = Array(line.utf8)
    _ = bytes.withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
  }
}
