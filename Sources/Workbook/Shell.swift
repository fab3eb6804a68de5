import Foundation

/// What a finished command printed and how it ended.
struct CommandResult {
  let status: Int32
  /// Whether the command was killed by a signal, as a test process is when it crashes.
  let crashed: Bool
  let output: String

  var succeeded: Bool { status == 0 && !crashed }
}

enum Shell {
  /// Runs `arguments` in `directory`, with `environment` added to this process's, and collects
  /// everything it prints (standard output and error together).
  static func run(
    _ arguments: [String], in directory: URL, environment: [String: String] = [:]
  ) throws(WorkbookError) -> CommandResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    process.currentDirectoryURL = directory
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    process.standardInput = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      throw WorkbookError(
        "could not run `\(arguments.joined(separator: " "))`: \(error.localizedDescription)")
    }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CommandResult(
      status: process.terminationStatus,
      crashed: process.terminationReason == .uncaughtSignal,
      output: String(decoding: data, as: UTF8.self))
  }

  /// Whether standard output is a terminal, so that colour and progress lines make sense.
  static var isTerminal: Bool {
    isatty(STDOUT_FILENO) == 1
  }
}

/// Prints "Building chapter 01…" for work that may take more than a moment, and how long it took.
struct ProgressLine {
  private let start = Date()
  private let quiet: Bool

  init(_ message: String, quiet: Bool = false) {
    self.quiet = quiet
    if !quiet { printError("\(message)…") }
  }

  func done(_ message: String = "done") {
    guard !quiet else { return }
    printError("  \(message) in \(String(format: "%.1f", Date().timeIntervalSince(start))) s")
  }
}

/// Progress and errors go to standard error, so that `--json` output stays clean on standard output.
func printError(_ line: String) {
  FileHandle.standardError.write(Data((line + "\n").utf8))
}
