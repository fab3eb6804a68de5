import Foundation

/// `workbook watch [N]`: check the chapter again each time one of its files changes.
///
/// This is the fastest loop the workbook has: the command is already running, so a save costs
/// only the chapter's build and its tests, not `swift run`'s own start-up.
struct Watch {
  let course: Course

  /// How often the chapter's files are read. They are a few kilobytes, so reading them 20 times a
  /// second costs nothing, and a save is noticed within 50 ms.
  static let interval: TimeInterval = 0.05

  func run(_ chapter: Chapter) throws(WorkbookError) -> Int32 {
    let check = Check(course: course)
    var last = ""
    while true {
      let now = fingerprint(of: chapter, in: course)
      if now != last {
        last = now
        _ = try check.run(chapter, json: false, watching: true)
        printNow(
          Terminal.wrap(
            "\nWatching Chapters/\(chapter.folder)/ for changes (Ctrl-C stops).",
            width: Terminal.width))
      }
      Thread.sleep(forTimeInterval: Self.interval)
    }
  }
}
