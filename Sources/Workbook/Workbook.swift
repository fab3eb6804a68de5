import Foundation

/// `swift run workbook`: where you are in the course, and the commands to move on.
@main
struct Workbook {
  /// The workbook's version, which `--version` prints with the commit it was built from.
  static let version = "1.0.0"

  static let usage = """
    usage: swift run workbook [command] [options]

      (no command)         the chapters, how far you are, and what to do next
      check N              build chapter N alone and run its tests against your code
      watch [N]            check chapter N again whenever you save it (Ctrl-C stops)
      hint N               the next hint for chapter N
      diff N [--starter]   once chapter N passes: the workbook's fix explained, and your code
                           against it (--starter: the starter instead, at any time)
      reset N              put chapter N back to its starter, keeping a backup of yours
      verify               the workbook's self-check: solutions pass, starters fail as declared
      help [COMMAND | N]   what a command does, or the commands for chapter N

    N is a chapter number, such as 1 or 01. For graders, check and verify take --json (Exercism's
    results.json, version 2, on standard output) and --junit PATH (JUnit XML written to PATH).
    Every command takes --help; --version prints the workbook's version.
    """

  /// What `workbook --help` and `workbook help` print: the usage, and what the exit status says.
  static var manual: String { "\(usage)\n\nExit status:\n\(ExitCode.table)" }

  static func main() {
    Shell.stopCommandsOnInterrupt()
    do {
      let invocation = try Invocation(parsing: Array(CommandLine.arguments.dropFirst()))
      exit(try run(invocation))
    } catch {
      // One sentence, and what to do about it, which may be the usage: both read as prose.
      let width = Terminal.width
      printError(Terminal.wrap("workbook: \(error.message)", width: width, reflowing: true))
      if let hint = error.hint {
        printError(Terminal.wrap("  \(hint)", width: width, reflowing: true))
      }
      exit(error.exitCode.rawValue)
    }
  }

  private static func run(_ invocation: Invocation) throws(WorkbookError) -> Int32 {
    if invocation.version {
      let commit = try? Course.locate().commit
      print("workbook \(version)" + (commit.map { " (git \($0))" } ?? ""))
      return 0
    }
    let command = invocation.command
    if invocation.help {
      Terminal.say(command == .help ? manual : command.help)
      return 0
    }
    if command == .help {
      return try help(invocation.operands.first)
    }
    let course = try Course.locate()
    let chapter = { () throws(WorkbookError) -> Chapter in
      try course.chapter(invocation.operands[0])
    }
    switch command {
    case .status:
      return try Status(course: course).show()
    case .check:
      return try Check(course: course).run(
        chapter(), json: invocation.json, junit: invocation.junit)
    case .hint:
      return try Hints(course: course).next(chapter())
    case .diff:
      return try Differ(course: course).show(chapter(), fromStarter: invocation.starter)
    case .reset:
      return try Reset(course: course).run(chapter())
    case .watch:
      let chosen =
        try invocation.operands.isEmpty ? Status(course: course).next() : chapter()
      return try Watch(course: course).run(chosen)
    case .verify:
      return try Verify(course: course).run(json: invocation.json, junit: invocation.junit)
    case .help:
      return try help(invocation.operands.first)
    }
  }

  /// `workbook help`, `workbook help check`, or `workbook help 3`: the commands for chapter 3.
  private static func help(_ topic: String?) throws(WorkbookError) -> Int32 {
    guard let topic else {
      Terminal.say(manual)
      return 0
    }
    if let command = Command(rawValue: topic) {
      Terminal.say(command.help)
      return 0
    }
    let chapter = try Course.locate().chapter(topic)
    Terminal.say(
      """
      Chapter \(chapter.number)\(chapter.title.isEmpty ? "" : " · " + chapter.title.replacingOccurrences(of: "`", with: ""))

        lesson:      Docs/\(chapter.folder).md
        your code:   Chapters/\(chapter.folder)/

        swift run workbook watch \(chapter.number)    test now and at every save (Ctrl-C stops)
        swift run workbook check \(chapter.number)    test once
        swift run workbook hint \(chapter.number)     the next hint
        swift run workbook diff \(chapter.number)     once it passes: the workbook's fix, explained
        swift run workbook reset \(chapter.number)    the starter back, keeping a backup of yours
      """)
    return 0
  }
}

/// The commands, each with what it takes and its `--help`.
enum Command: String, CaseIterable {
  case status, check, watch, hint, diff, reset, verify, help

  /// The options a command accepts, besides `--help`.
  var options: Set<String> {
    switch self {
    case .check, .verify: ["--json", "--junit"]
    case .diff: ["--starter"]
    default: []
    }
  }

  /// How many chapter numbers it takes.
  var operands: ClosedRange<Int> {
    switch self {
    case .status, .verify: 0...0
    case .watch, .help: 0...1
    default: 1...1
    }
  }

  var synopsis: String {
    switch self {
    case .status: "swift run workbook"
    case .check: "swift run workbook check N [--json] [--junit PATH]"
    case .watch: "swift run workbook watch [N]"
    case .hint: "swift run workbook hint N"
    case .diff: "swift run workbook diff N [--starter]"
    case .reset: "swift run workbook reset N"
    case .verify: "swift run workbook verify [--json] [--junit PATH]"
    case .help: "swift run workbook help [COMMAND | N]"
    }
  }

  var help: String {
    let graders = """

        --json         print Exercism's results.json (version 2) on standard output; progress
                       still goes to standard error
        --junit PATH   also write JUnit XML to the file PATH. A folder, a path that cannot be
                       written, or a file that is not a JUnit report is refused before anything
                       is built; the report is written beside PATH and renamed into place.

      Exit status:
      \(ExitCode.table)
      """
    let text: String
    switch self {
    case .status:
      text = """
        The chapters, the state of each (not started, failing, done; or its folder missing, with
        no Swift file, or a file empty), and what to do next. It builds nothing.
        """
    case .check:
      text = """
        Builds chapter N alone, so that another chapter's unfinished code never stops it, runs
        its tests against your code in Chapters/, and prints every test's verdict.
        N is a chapter number, such as 1 or 01.
        """ + "\n" + graders
    case .watch:
      text = """
        Checks chapter N now, and again each time you save one of its files. Ctrl-C stops it.
        Without N, the first chapter that is not done.
        """
    case .hint:
      text = """
        The next of chapter N's three hints, from a question that points at the gap to the API
        that closes it.
        """
    case .diff:
      text = """
        Once chapter N passes: the explanation of the workbook's fix, and how your code differs
        from it. Without Solutions/ (a student edition), the explanation alone.

        --starter      the starter against the fix instead, at any time
        """
    case .reset:
      text = """
        Puts chapter N's starter back in Chapters/, from git, after saving your files under
        .workbook/backups/. It brings back a chapter folder that is missing, too.
        """
    case .verify:
      text = """
        The workbook's self-check, what CI runs (Scripts/verify): every chapter has its solution,
        lesson, hints and recorded starter; the code is formatted; every solution passes its
        whole suite without a warning; every starter fails exactly its tests marked .exposesBug.
        It needs every chapter's folder in Chapters/ and Solutions/.
        """ + "\n" + graders
    case .help:
      text = """
        What a command does, such as `help check`, or the commands for chapter N, such as
        `help 3`. Without either, every command.
        """
    }
    return "usage: \(synopsis)\n\n\(text)"
  }
}

/// The command line, read: the command, its chapter, and its options.
struct Invocation {
  var command = Command.status
  var operands: [String] = []
  var json = false
  var junit: OutputFile?
  var starter = false
  var help = false
  var version = false

  /// Reads `arguments`. An option no command knows, one the command does not take, or a wrong
  /// number of chapters is a usage error; a `--junit` path is checked here, before any build.
  init(parsing arguments: [String]) throws(WorkbookError) {
    var words: [String] = []
    var junitPath: String?
    var given: [String] = []
    var index = 0
    var optionsEnded = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      guard !optionsEnded, argument.hasPrefix("-"), argument != "-" else {
        words.append(argument)
        continue
      }
      let (name, attached) =
        argument.firstIndex(of: "=").map {
          (String(argument[..<$0]), String(argument[argument.index(after: $0)...]))
        } ?? (argument, nil)
      switch name {
      case "--":
        optionsEnded = true
        continue
      case "--help", "-h": help = true
      case "--version": version = true
      case "--json": json = true
      case "--starter": starter = true
      case "--junit":
        if let attached {
          junitPath = attached
        } else if index < arguments.count, !arguments[index].hasPrefix("-") {
          junitPath = arguments[index]
          index += 1
        } else {
          throw WorkbookError.usage(
            "`--junit` needs the path of the file to write, such as `--junit results.xml`.",
            hint: Command.check.synopsis)
        }
      default:
        throw WorkbookError.usage("there is no option `\(name)`.", hint: Workbook.usage)
      }
      if attached != nil, name != "--junit" {
        throw WorkbookError.usage("`\(name)` takes no value.", hint: Workbook.usage)
      }
      given.append(name)
    }
    if version { return }
    // `workbook --help` is the whole usage, as `workbook help` is.
    if help, words.isEmpty {
      command = .help
      return
    }
    if let first = words.first {
      guard let command = Command(rawValue: first) else {
        throw WorkbookError.usage("there is no command `\(first)`.", hint: Workbook.usage)
      }
      self.command = command
      operands = Array(words.dropFirst())
    }
    if help { return }
    for option in given where !["--help", "-h", "--version"].contains(option) {
      guard command.options.contains(option) else {
        let takers = Command.allCases.filter { $0.options.contains(option) }.map { "`\($0)`" }
        throw WorkbookError.usage(
          "`\(option)` works with \(takers.joined(separator: " and ")) only.",
          hint: command.synopsis)
      }
    }
    guard command.operands.contains(operands.count) else {
      let wanted =
        command.operands == 0...0
        ? "takes no chapter number"
        : command.operands == 1...1
          ? "takes one chapter number, such as `workbook \(command) 1`"
          : "takes at most one chapter number"
      throw WorkbookError.usage("`\(command)` \(wanted).", hint: command.synopsis)
    }
    if let junitPath {
      junit = try OutputFile(junitPath, option: "--junit", kind: .junit)
    }
  }
}
