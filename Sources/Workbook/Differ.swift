import Foundation

/// `workbook diff N`: the explanation of the workbook's fix, then the student's chapter (or its
/// starter) against the solution.
///
/// The fix is the answer to the chapter, so a student sees it once the chapter's tests pass: the
/// last check was green, and the files have not changed since. An instructor sees it at any time
/// against the starter (`--starter`).
struct Differ {
  let course: Course

  func show(_ chapter: Chapter, fromStarter: Bool) throws(WorkbookError) -> Int32 {
    guard fromStarter || isDone(chapter) else {
      Terminal.say(
        """
        Chapter \(chapter.number) is not done yet, so the workbook keeps its fix to itself for now.
        Once `swift run workbook check \(chapter.number)` passes, `swift run workbook diff \(chapter.number)` \
        explains the workbook's fix and shows how it differs from yours. Stuck? \
        `swift run workbook hint \(chapter.number)` gives a hint.
        """)
      return 1
    }
    let solution = "Solutions/\(chapter.folder)"
    let explanation = try Hints(course: course).parts(for: chapter).explanation
    let hasSolution = course.missing(chapter, in: "Solutions") == nil
    if !hasSolution, !isFolder(course.url("Solutions")) {
      Terminal.say("Chapter \(chapter.number) · the workbook's fix\n")
      Terminal.say(explanation)
      Terminal.say(
        "\nThis copy of the course comes without Solutions/, so there is no code to compare "
          + "with; the explanation above is the workbook's fix.")
      return 0
    }
    guard hasSolution else {
      throw WorkbookError(
        "\(solution) is missing, so there is no fix to show.",
        hint: isInGit(solution) ? "`git checkout -- \(solution)` brings it back." : nil)
    }
    Terminal.say("Chapter \(chapter.number) · the workbook's fix\n")
    Terminal.say(explanation)
    print("\n" + String(repeating: "─", count: min(60, Terminal.columns)) + "\n")
    let from: String
    if fromStarter {
      from = ".workbook/starter/\(chapter.folder)"
      try writeStarter(of: chapter, to: from)
    } else {
      _ = try course.sources(of: chapter)
      from = "Chapters/\(chapter.folder)"
    }
    let colour = Terminal.usesColour ? "--color=always" : "--color=never"
    let result = try Shell.run(
      [
        "git", "--no-pager", "diff", "--no-index", colour, "--", from, solution,
      ],
      in: course.root)
    // git diff answers 1 when the two differ, which is what a diff is for.
    guard result.status <= 1, !result.crashed else {
      throw WorkbookError("git could not compare the files: \(result.output)")
    }
    if result.output.isEmpty {
      Terminal.say(
        fromStarter
          ? "The starter is the same as the solution."
          : "Your chapter \(chapter.number) is the same as the solution.")
    } else {
      // The diff's lines are code, and git's own: printed as they are, whatever the width, since
      // a line of code broken in two is no longer the same code.
      print(result.output, terminator: "")
    }
    return 0
  }

  private func isFolder(_ url: URL) -> Bool {
    var isFolder: ObjCBool = false
    return FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder)
      && isFolder.boolValue
  }

  /// Whether git has `path` at the checked-out commit, so that `git checkout` can bring it back.
  private func isInGit(_ path: String) -> Bool {
    (try? Shell.run(["git", "cat-file", "-e", "HEAD:\(path)"], in: course.root))?.succeeded ?? false
  }

  /// Whether the chapter's last check passed, and its files are still the ones checked.
  private func isDone(_ chapter: Chapter) -> Bool {
    guard let check = Progress.load(course).checks[chapter.number] else { return false }
    return check.verdict == .done && check.sources == fingerprint(of: chapter, in: course)
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
