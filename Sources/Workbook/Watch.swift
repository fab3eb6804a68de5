import Foundation

/// `workbook watch [N]`: check the chapter again each time one of its files changes.
struct Watch {
  let course: Course

  func run(_ chapter: Chapter) throws(WorkbookError) -> Int32 {
    let check = Check(course: course)
    var last = ""
    while true {
      let now = fingerprint(of: chapter, in: course)
      if now != last {
        last = now
        _ = try check.run(chapter, json: false)
        print("\nWatching Chapters/\(chapter.folder)/ for changes (Ctrl-C stops).")
      }
      Thread.sleep(forTimeInterval: 0.5)
    }
  }
}
