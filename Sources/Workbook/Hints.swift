import Foundation

/// `workbook hint N`: the chapter's hints, one more each time, from its lesson's "Hints" section.
struct Hints {
  let course: Course

  func next(_ chapter: Chapter) throws(WorkbookError) -> Int32 {
    let hints = try hints(for: chapter)
    var progress = Progress.load(course)
    let seen = progress.hintsSeen[chapter.number, default: 0]
    guard seen < hints.count else {
      print(
        "That was the last hint for chapter \(chapter.number). Still stuck? Look at the workbook's fix:"
      )
      print("  swift run workbook diff \(chapter.number)")
      return 0
    }
    print("Hint \(seen + 1) of \(hints.count) for chapter \(chapter.number):\n")
    print(hints[seen])
    progress.hintsSeen[chapter.number] = seen + 1
    progress.save(course)
    if seen + 1 < hints.count {
      print("\nRun `swift run workbook hint \(chapter.number)` again for the next one.")
    }
    return 0
  }

  /// The numbered items under the lesson's `### Hints` heading.
  func hints(for chapter: Chapter) throws(WorkbookError) -> [String] {
    let path = "Docs/\(chapter.folder).md"
    guard let lesson = try? String(contentsOf: course.url(path), encoding: .utf8) else {
      throw WorkbookError("the lesson \(path) is missing.")
    }
    var hints: [String] = []
    var inSection = false
    for line in lesson.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("#") {
        inSection = line.trimmingCharacters(in: .whitespaces) == "### Hints"
        continue
      }
      guard inSection else { continue }
      if let dot = line.firstIndex(of: "."), line[..<dot].allSatisfy(\.isNumber),
        dot != line.startIndex
      {
        hints.append(line[line.index(after: dot)...].trimmingCharacters(in: .whitespaces))
      } else if line.hasPrefix("   "), !hints.isEmpty {
        hints[hints.count - 1] += " " + line.trimmingCharacters(in: .whitespaces)
      } else if !hints.isEmpty, !line.trimmingCharacters(in: .whitespaces).isEmpty {
        // A paragraph after the list ends it; one before the list introduces it.
        inSection = false
      }
    }
    guard !hints.isEmpty else {
      throw WorkbookError("the lesson \(path) has no `### Hints` section.")
    }
    return hints
  }
}
