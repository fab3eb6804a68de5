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

    var description: String {
      switch self {
      case .notStarted: "not started"
      case .changedSinceCheck: "changed since the last check"
      case .failing(let passed, let total): "failing: \(passed) of \(total) tests pass"
      case .brokenBuild: "does not compile"
      case .crashed: "crashed"
      case .timedOut: "stopped: ran too long"
      case .done: "done"
      }
    }
  }

  /// Each chapter's state, without building anything: from the last check and the files on disk.
  func states() throws(WorkbookError) -> [(Chapter, State)] {
    let progress = Progress.load(course)
    let untouched = try Starters(course).untouched()
    return course.chapters.map { chapter in
      guard !untouched.contains(chapter.folder) else { return (chapter, .notStarted) }
      guard let check = progress.checks[chapter.number],
        check.sources == fingerprint(of: chapter, in: course)
      else { return (chapter, .changedSinceCheck) }
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
    let width = min(58, states.map { plain($0.0.title).count }.max() ?? 0)
    print("The Actor Reentrancy Workbook: \(states.count) chapters\n")
    print("  #   " + "Chapter".padding(toLength: width, withPad: " ", startingAt: 0) + "  State")
    for (chapter, state) in states {
      let title = String(plain(chapter.title).prefix(width))
      print(
        "  \(chapter.number)  " + title.padding(toLength: width, withPad: " ", startingAt: 0)
          + "  \(state.description)")
    }
    print()
    guard let (chapter, state) = states.first(where: { $0.1 != .done }) else {
      print(
        "Every chapter is done. Compare your fixes with the workbook's: swift run workbook diff N")
      return 0
    }
    print("Next: chapter \(chapter.number) (\(state.description)).")
    if state == .notStarted {
      print("  Read Docs/\(chapter.folder).md, then run:")
    } else {
      print("  Edit Chapters/\(chapter.folder)/, then run:")
    }
    print("  swift run workbook check \(chapter.number)")
    return 0
  }

  /// A title without Markdown's backticks.
  private func plain(_ title: String) -> String {
    title.replacingOccurrences(of: "`", with: "")
  }
}
