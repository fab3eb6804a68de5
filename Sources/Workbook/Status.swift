import Foundation

/// The chapter table: where the student stands, and what to do next.
struct Status {
  let course: Course

  enum State: Equatable {
    case notStarted
    case changedSinceCheck
    case failing(passed: Int, total: Int)
    case brokenBuild
    case crashed
    case timedOut
    case done
    /// The chapter's folder is missing.
    case missing
    /// The chapter's folder is there, and holds no Swift file.
    case noSwiftFile
    /// A starter file of the chapter holds nothing but white space.
    case emptyFile

    /// Whether there is nothing to build, so that `reset` is what brings the chapter back.
    var isMissing: Bool { self == .missing || self == .noSwiftFile }

    var description: String {
      switch self {
      case .notStarted: "not started"
      case .changedSinceCheck: "changed since the last check"
      case .failing(let passed, let total): "failing: \(passed) of \(total) tests pass"
      case .brokenBuild: "does not compile"
      case .crashed: "crashed"
      case .timedOut: "stopped: ran too long"
      case .done: "done"
      case .missing: "folder missing"
      case .noSwiftFile: "no Swift file"
      case .emptyFile: "file empty"
      }
    }
  }

  /// Each chapter's state, without building anything: from the last check and the files on disk.
  func states() throws(WorkbookError) -> [(Chapter, State)] {
    let progress = Progress.load(course)
    let untouched = try Starters(course).untouched()
    return course.chapters.map { chapter in
      if course.missing(chapter) != nil {
        let folder = course.url("Chapters/\(chapter.folder)").path
        return (chapter, FileManager.default.fileExists(atPath: folder) ? .noSwiftFile : .missing)
      }
      guard !untouched.contains(chapter.folder) else { return (chapter, .notStarted) }
      let check = progress.checks[chapter.number].flatMap { check in
        check.sources == fingerprint(of: chapter, in: course) ? check : nil
      }
      // An emptied file is worth saying, unless the chapter passed as it is now.
      if check?.verdict != .done, emptyFile(of: chapter) != nil {
        return (chapter, .emptyFile)
      }
      guard let check else { return (chapter, .changedSinceCheck) }
      switch check.verdict {
      case .done: return (chapter, .done)
      case .failing: return (chapter, .failing(passed: check.passed, total: check.total))
      case .doesNotCompile: return (chapter, .brokenBuild)
      case .crashed: return (chapter, .crashed)
      case .timedOut: return (chapter, .timedOut)
      }
    }
  }

  /// The first chapter that is not done.
  func next() throws(WorkbookError) -> Chapter {
    let states = try states()
    guard let first = states.first?.0 else { throw WorkbookError("the workbook has no chapters.") }
    return states.first { $0.1 != .done }?.0 ?? first
  }

  func show() throws(WorkbookError) -> Int32 {
    let states = try states()
    print("The Actor Reentrancy Workbook: \(states.count) chapters\n")
    print(table(states, columns: Terminal.columns))
    print()
    for (chapter, state) in states where state.isMissing || state == .emptyFile {
      let why = course.missing(chapter) ?? "\(emptyFile(of: chapter) ?? "A file") is empty."
      Terminal.say("Chapter \(chapter.number): \(why) \(course.restore(chapter))")
    }
    if states.contains(where: { $0.1.isMissing || $0.1 == .emptyFile }) { print() }
    guard let (chapter, state) = states.first(where: { $0.1 != .done }) else {
      Terminal.say("Every chapter is done. Compare your fixes with the workbook's:")
      Terminal.say("  swift run workbook diff N")
      return 0
    }
    if state.isMissing {
      let folder =
        state == .missing ? "whose folder is missing" : "whose folder holds no Swift file"
      Terminal.say("Next: chapter \(chapter.number), \(folder). Bring its starter back:")
      Terminal.say("  swift run workbook reset \(chapter.number)")
      return 0
    }
    Terminal.say("Next: chapter \(chapter.number) (\(state.description)).")
    if Judge.judges(chapter, in: course) {
      let test = (try? Judge(course: course, chapter: chapter).testFile()) ?? "its test file"
      Terminal.say("  Read Docs/\(chapter.folder).md, write your test in")
      Terminal.say("  Chapters/\(chapter.folder)/\(test), then run:")
    } else if state == .notStarted {
      Terminal.say("  Read Docs/\(chapter.folder).md, then run:")
    } else {
      Terminal.say("  Edit Chapters/\(chapter.folder)/, then run:")
    }
    Terminal.say("  swift run workbook watch \(chapter.number)")
    Terminal.say("  It tests now and at every save; Ctrl-C stops it.")
    return 0
  }

  /// The path of a starter file of `chapter` that holds nothing but white space, if one does.
  private func emptyFile(of chapter: Chapter) -> String? {
    BrokenCode.absentStarterFile(of: chapter, in: course).flatMap { $0.empty ? $0.path : nil }
  }

  /// The chapter table, `columns` wide at most: the titles get what the numbers and states leave,
  /// and a title that does not fit ends at a word with an ellipsis.
  func table(_ states: [(Chapter, State)], columns: Int) -> String {
    let stateWidth = states.map(\.1.description.count).max() ?? 0
    let longest = states.map { plain($0.0.title).count }.max() ?? 0
    // "  01  " before the title and two spaces after it; at least a word or two of the title.
    let width = max(min(longest, columns - 6 - 2 - max(stateWidth, 5)), 12)
    let rows =
      [("#", "Chapter", "State")]
      + states.map { ($0.0.number, shortened(plain($0.0.title), to: width), $0.1.description) }
    var lines = rows.map { number, title, state in
      "  " + number.padding(toLength: 2, withPad: " ", startingAt: 0) + "  "
        + title.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + state
    }
    // Part III begins at the first chapter whose test the student writes.
    if let first = states.firstIndex(where: { Judge.judges($0.0, in: course) }) {
      lines.insert(
        shortened("      Part III: you write the test, the workbook judges it", to: columns),
        at: first + 1)
    }
    return lines.joined(separator: "\n")
  }

  /// `text` in `width` characters at most: whole words and an ellipsis when it is longer, and a
  /// word cut only when a single word is longer than `width`, with the ellipsis showing it.
  func shortened(_ text: String, to width: Int) -> String {
    guard text.count > width else { return text }
    let room = text.prefix(width - 1)
    // Cut at the last space that leaves a word whole, if the next character starts a new word.
    let whole =
      text.dropFirst(room.count).first == " "
      ? room : room.lastIndex(of: " ").map { room[..<$0] } ?? room
    let trimmed = whole.trimmingCharacters(in: CharacterSet(charactersIn: " ,;:·-"))
    return (trimmed.isEmpty ? String(room) : trimmed) + "…"
  }

  /// A title without Markdown's backticks.
  private func plain(_ title: String) -> String {
    title.replacingOccurrences(of: "`", with: "")
  }
}
