import Foundation

/// `workbook reset N`: the chapter's starter back in place, after a backup of the student's files.
struct Reset {
  let course: Course

  func run(_ chapter: Chapter) throws(WorkbookError) -> Int32 {
    let starters = try Starters(course)
    let folder = course.url("Chapters/\(chapter.folder)")
    if starters.untouched().contains(chapter.folder) {
      print("Chapter \(chapter.number) is already its starter; nothing to reset.")
      return 0
    }
    let current = (try? course.sources(of: chapter)) ?? []
    var backup: String?
    if !current.isEmpty {
      let stamp = ISO8601DateFormatter().string(from: Date())
        .replacingOccurrences(of: ":", with: "")
      let path = ".workbook/backups/\(chapter.folder)/\(stamp)"
      try copy(current, from: folder, to: course.url(path))
      backup = path
    }
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      for file in starters.files(of: chapter) {
        try starters.text(of: file, in: chapter).write(to: folder.appendingPathComponent(file))
      }
      for file in current where !starters.files(of: chapter).contains(file) {
        try FileManager.default.removeItem(at: folder.appendingPathComponent(file))
      }
    } catch let error as WorkbookError {
      throw error
    } catch {
      throw WorkbookError("could not write the starter: \(error.localizedDescription)")
    }
    if let backup {
      print("Saved your version of chapter \(chapter.number) in \(backup)/")
    }
    print("Chapter \(chapter.number) is back to its starter: Chapters/\(chapter.folder)/")
    return 0
  }

  private func copy(_ files: [String], from source: URL, to backup: URL) throws(WorkbookError) {
    do {
      try FileManager.default.createDirectory(at: backup, withIntermediateDirectories: true)
      for file in files {
        try FileManager.default.copyItem(
          at: source.appendingPathComponent(file), to: backup.appendingPathComponent(file))
      }
    } catch {
      throw WorkbookError(
        "could not save a backup, so nothing was reset: \(error.localizedDescription)")
    }
  }
}
