import Foundation

/// `workbook diff N`: the student's chapter (or its starter) against the solution.
struct Differ {
  let course: Course

  func show(_ chapter: Chapter, fromStarter: Bool) throws(WorkbookError) -> Int32 {
    let from: String
    if fromStarter {
      from = ".workbook/starter/\(chapter.folder)"
      try writeStarter(of: chapter, to: from)
    } else {
      _ = try course.sources(of: chapter)
      from = "Chapters/\(chapter.folder)"
    }
    let colour = Shell.isTerminal ? "--color=always" : "--color=never"
    let result = try Shell.run(
      [
        "git", "--no-pager", "diff", "--no-index", colour, "--", from,
        "Solutions/\(chapter.folder)",
      ],
      in: course.root)
    // git diff answers 1 when the two differ, which is what a diff is for.
    guard result.status <= 1, !result.crashed else {
      throw WorkbookError("git could not compare the files: \(result.output)")
    }
    if result.output.isEmpty {
      print(
        fromStarter
          ? "The starter is the same as the solution."
          : "Your chapter \(chapter.number) is the same as the solution.")
    } else {
      print(result.output, terminator: "")
    }
    return 0
  }

  private func writeStarter(of chapter: Chapter, to folder: String) throws(WorkbookError) {
    let starters = try Starters(course)
    let directory = course.url(folder)
    try? FileManager.default.removeItem(at: directory)
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      for file in starters.files(of: chapter) {
        try starters.text(of: file, in: chapter).write(to: directory.appendingPathComponent(file))
      }
    } catch let error as WorkbookError {
      throw error
    } catch {
      throw WorkbookError("could not write the starter to \(folder): \(error.localizedDescription)")
    }
  }
}
