import Foundation

/// Where explorations say how much they explored, for the self-check's report.
///
/// `workbook verify` sets `WORKBOOK_EXPLORATION_LOG` to a file; every exploration appends one line
/// to it: the chapter, the number of schedules, the seconds they took, the number of callers and
/// how many of the schedules were pruned, separated by tabs. A student's run sets nothing and prints nothing.
enum ExplorationLog {
  private static let lock = NSLock()

  static func append(chapter: String, schedules: Int, seconds: Double, calls: Int, pruned: Int) {
    guard let path = ProcessInfo.processInfo.environment["WORKBOOK_EXPLORATION_LOG"] else {
      return
    }
    let seconds = String(format: "%.3f", seconds)
    let line = "\(chapter)\t\(schedules)\t\(seconds)\t\(calls)\t\(pruned)\n"
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
