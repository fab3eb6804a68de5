import Foundation

/// `workbook reset N`: the chapter's starter back in place, after a backup of the student's files.
struct Reset {
  let course: Course

  func run(_ chapter: Chapter) throws(WorkbookError) -> Int32 {
    let starters = try Starters(course)
    let folder = course.url("Chapters/\(chapter.folder)")
    if starters.untouched().contains(chapter.folder) {
      Terminal.say("Chapter \(chapter.number) is already its starter; nothing to reset.")
      return 0
    }
    let current = (try? course.sources(of: chapter)) ?? []
    var backup: String?
    if !current.isEmpty {
      let path = try newBackup(of: chapter)
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
      Terminal.say("Saved your version of chapter \(chapter.number) in \(backup)/")
    }
    Terminal.say("Chapter \(chapter.number) is back to its starter: Chapters/\(chapter.folder)/")
    return 0
  }

  /// A new backup folder, named by the time: two resets within one second get `…T101500Z` and
  /// `…T101500Z-2`, so that neither backup takes the other's place. Creating the folder is what
  /// claims the name, so two resets at once cannot pick the same one either.
  private func newBackup(of chapter: Chapter) throws(WorkbookError) -> String {
    let stamp = ISO8601DateFormatter().string(from: Date()).replacingOccurrences(of: ":", with: "")
    let parent = ".workbook/backups/\(chapter.folder)"
    try? FileManager.default.createDirectory(
      at: course.url(parent), withIntermediateDirectories: true)
    var path = "\(parent)/\(stamp)"
    var count = 1
    while mkdir(course.url(path).path, 0o755) != 0 {
      guard errno == EEXIST, count < 1000 else {
        throw WorkbookError(
          "could not save a backup in \(parent), so nothing was reset: "
            + "\(String(cString: strerror(errno))).")
      }
      count += 1
      path = "\(parent)/\(stamp)-\(count)"
    }
    return path
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
