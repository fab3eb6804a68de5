import Foundation

/// `swift run workbook`: where you are in the course, and the commands to move on.
@main
struct Workbook {
  static let usage = """
    usage: swift run workbook [command]

      (no command)         the chapters, how far you are, and what to do next
      check N              build chapter N alone and run its tests against your code
      watch [N]            check chapter N again whenever you save it (Ctrl-C stops)
      hint N               the next hint for chapter N
      diff N [--starter]   once chapter N passes: the workbook's fix explained, and your code
                           against it (--starter: the starter instead, at any time)
      reset N              put chapter N back to its starter, keeping a backup of yours
      verify               the workbook's self-check: solutions pass, starters fail as declared

    N is a chapter number, such as 1 or 01. For graders, check and verify take --json (Exercism's
    results.json, version 2, on standard output) and --junit PATH (JUnit XML written to PATH).

    Exit status:
    \(ExitCode.table)
    """

  /// The options that graders pass to `check` and `verify`.
  struct Options {
    var json = false
    var junit: URL?

    /// Takes the options out of `arguments`, leaving the command and its chapter.
    init(taking arguments: inout [String]) throws(WorkbookError) {
      json = arguments.contains("--json")
      arguments.removeAll { $0 == "--json" }
      guard let flag = arguments.firstIndex(of: "--junit") else { return }
      guard flag + 1 < arguments.count, !arguments[flag + 1].hasPrefix("-") else {
        throw WorkbookError.usage(
          "`--junit` needs the path of the file to write, such as `--junit results.xml`.")
      }
      // The tests run in the workbook's folder; the path is the one the student typed, from here.
      junit =
        URL(
          fileURLWithPath: arguments[flag + 1],
          relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        ).absoluteURL
      arguments.removeSubrange(flag...(flag + 1))
      guard ["check", "verify"].contains(arguments.first) else {
        throw WorkbookError.usage("`--junit` works with `check` and `verify` only.", hint: usage)
      }
    }
  }

  static func main() {
    Shell.stopCommandsOnInterrupt()
    var arguments = Array(CommandLine.arguments.dropFirst())
    do {
      let options = try Options(taking: &arguments)
      let course = try Course.locate()
      let status = try run(arguments, options, course: course)
      exit(status)
    } catch {
      printError("workbook: \(error.message)")
      if let hint = error.hint { printError("  \(hint)") }
      exit(error.exitCode.rawValue)
    }
  }

  private static func run(
    _ arguments: [String], _ options: Options, course: Course
  ) throws(WorkbookError) -> Int32 {
    let command = arguments.first ?? "status"
    let rest = Array(arguments.dropFirst())
    switch command {
    case "status":
      return try Status(course: course).show()
    case "check":
      return try Check(course: course).run(
        chapter(rest, in: course, for: command), json: options.json, junit: options.junit)
    case "hint":
      return try Hints(course: course).next(chapter(rest, in: course, for: command))
    case "diff":
      let starter = rest.contains("--starter")
      let chapter = try chapter(rest.filter { $0 != "--starter" }, in: course, for: command)
      return try Differ(course: course).show(chapter, fromStarter: starter)
    case "reset":
      return try Reset(course: course).run(chapter(rest, in: course, for: command))
    case "watch":
      let chapter =
        try rest.isEmpty ? Status(course: course).next() : chapter(rest, in: course, for: command)
      return try Watch(course: course).run(chapter)
    case "verify":
      return try Verify(course: course).run(json: options.json, junit: options.junit)
    case "help", "--help", "-h":
      print(usage)
      return 0
    default:
      throw WorkbookError.usage("there is no command `\(command)`.", hint: usage)
    }
  }

  private static func chapter(
    _ arguments: [String], in course: Course, for command: String
  ) throws(WorkbookError) -> Chapter {
    guard let name = arguments.first, arguments.count == 1, !name.hasPrefix("-") else {
      throw WorkbookError.usage(
        "`\(command)` takes one chapter number, such as `workbook \(command) 1`.", hint: usage)
    }
    return try course.chapter(name)
  }
}
