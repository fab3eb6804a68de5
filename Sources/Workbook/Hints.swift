import Foundation

/// A chapter's hints and the explanation of its fix, from `Hints/NN-Name.md`.
///
/// The lesson says what goes wrong; the hints, one at a time, lead from a question to the API;
/// the explanation of the workbook's fix comes once the student's tests pass. Keeping them out of
/// the lesson is what lets a student try first.
struct Hints {
  let course: Course

  /// The file's parts: `## Hint 1`, `## Hint 2`, `## Hint 3`, and `## After green`.
  struct Parts {
    var hints: [String]
    var explanation: String
  }

  func next(_ chapter: Chapter) throws(WorkbookError) -> Int32 {
    let hints = try parts(for: chapter).hints
    var progress = Progress.load(course)
    let seen = progress.hintsSeen[chapter.number, default: 0]
    guard seen < hints.count else {
      Terminal.say("That was the last hint for chapter \(chapter.number).")
      Terminal.say(
        "Once its tests pass, `swift run workbook diff \(chapter.number)` explains the workbook's fix."
      )
      return 0
    }
    Terminal.say("Hint \(seen + 1) of \(hints.count) for chapter \(chapter.number):\n")
    Terminal.say(hints[seen])
    progress.hintsSeen[chapter.number] = seen + 1
    progress.save(course)
    if seen + 1 < hints.count {
      Terminal.say("\nRun `swift run workbook hint \(chapter.number)` again for the next one.")
    }
    return 0
  }

  static func path(of chapter: Chapter) -> String {
    "Hints/\(chapter.folder).md"
  }

  /// Reads the chapter's hints file, or says what is wrong with it.
  func parts(for chapter: Chapter) throws(WorkbookError) -> Parts {
    let path = Self.path(of: chapter)
    guard let text = try? String(contentsOf: course.url(path), encoding: .utf8) else {
      throw WorkbookError("the hints of chapter \(chapter.number), \(path), are missing.")
    }
    var sections: [(heading: String, lines: [String])] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("## ") {
        sections.append((String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces), []))
      } else if !sections.isEmpty {
        sections[sections.count - 1].lines.append(String(line))
      }
    }
    func body(_ heading: String) -> String? {
      sections.first { $0.heading == heading }?.lines.joined(separator: "\n")
        .trimmingCharacters(in: .whitespacesAndNewlines)
    }
    let hints = (1...3).compactMap { body("Hint \($0)") }.filter { !$0.isEmpty }
    guard hints.count == 3 else {
      throw WorkbookError("\(path) should hold three hints, `## Hint 1` to `## Hint 3`.")
    }
    guard let explanation = body("After green"), !explanation.isEmpty else {
      throw WorkbookError("\(path) has no `## After green` section explaining the fix.")
    }
    return Parts(hints: hints, explanation: explanation)
  }
}
