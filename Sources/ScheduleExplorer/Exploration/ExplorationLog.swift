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
    if let handle = FileHandle(forWritingAtPath: path) {
      handle.seekToEndOfFile()
      handle.write(Data(line.utf8))
      handle.closeFile()
    } else {
      _ = FileManager.default.createFile(atPath: path, contents: Data(line.utf8))
    }
  }
}
