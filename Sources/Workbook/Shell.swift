import Foundation
import Synchronization

/// What a finished command printed and how it ended.
struct CommandResult {
  let status: Int32
  /// Whether the command was killed by a signal, as a test process is when it crashes.
  let crashed: Bool
  /// Whether the command ran past its time limit, so that its process group was stopped.
  let timedOut: Bool
  let output: String
  /// What the command wrote to its standard output, when the run kept it apart from `output`.
  var standardOutput = ""

  var succeeded: Bool { status == 0 && !crashed && !timedOut }
}

enum Shell {
  /// Runs `arguments` in `directory`, with `environment` added to this process's, and collects
  /// everything it prints (standard output and error together).
  ///
  /// The command runs in a process group of its own, so that a time limit or a Ctrl-C can stop it
  /// together with everything it started. Its output goes to a file, not a pipe, and the wait is
  /// for the command itself to exit: a process it left behind that still holds the output open
  /// (such as the toolchain's crash reporter) cannot keep the workbook waiting.
  ///
  /// `onLine`, when given, sees each line of that output while the command runs, a few times a
  /// second, so that long work can show its progress.
  ///
  /// With `separatingStandardOutput`, standard output goes to a pipe instead, read as the command
  /// writes it, into ``CommandResult/standardOutput``: a pipe keeps the order of writes that
  /// several open files of it make, which a regular file does not.
  static func run(
    _ arguments: [String], in directory: URL, environment: [String: String] = [:],
    timeLimit: Duration? = nil, separatingStandardOutput: Bool = false,
    onLine: ((String) -> Void)? = nil
  ) throws(WorkbookError) -> CommandResult {
    let log = FileManager.default.temporaryDirectory.appendingPathComponent(
      "workbook-\(getpid())-\(UUID().uuidString).log")
    defer { try? FileManager.default.removeItem(at: log) }
    let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    var ends: [Int32] = [-1, -1]
    if separatingStandardOutput {
      guard pipe(&ends) == 0 else {
        throw WorkbookError("could not make a pipe: \(String(cString: strerror(errno))).")
      }
      // The workbook reads its end without blocking, between checks of the time limit.
      _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
      _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
    }
    let pid: pid_t
    do {
      pid = try spawn(
        arguments, in: directory, environment: variables, output: log,
        standardOutput: separatingStandardOutput ? ends[1] : nil)
    } catch {
      if separatingStandardOutput {
        close(ends[0])
        close(ends[1])
      }
      throw error
    }
    var written = Data()
    var buffer = [UInt8](repeating: 0, count: separatingStandardOutput ? 65_536 : 0)
    if separatingStandardOutput { close(ends[1]) }
    defer { if separatingStandardOutput { close(ends[0]) } }
    /// Takes what the command has written so far: a pipe holds only 64 KiB, and a command that
    /// fills it waits until it is read.
    func drain() {
      guard separatingStandardOutput else { return }
      while true {
        let count = read(ends[0], &buffer, buffer.count)
        guard count > 0 else { return }
        written.append(contentsOf: buffer[..<count])
      }
    }

    let slot = RunningGroups.add(pid)
    defer { RunningGroups.remove(slot) }
    let deadline = timeLimit.map { ContinuousClock.now + $0 }
    var status: Int32 = 0
    var timedOut = false
    let reader = onLine.flatMap { _ in FileHandle(forReadingAtPath: log.path) }
    defer { try? reader?.close() }
    var pending = Data()
    func readLines() {
      guard let reader, let onLine else { return }
      if let data = try? reader.readToEnd() { pending.append(data) }
      while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
        onLine(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
        pending.removeSubrange(pending.startIndex...newline)
      }
    }
    var polls = 0
    // Polling every 2 ms costs nothing a student can see and keeps the limit a plain comparison.
    while waitpid(pid, &status, WNOHANG) == 0 {
      drain()
      if let deadline, ContinuousClock.now >= deadline {
        kill(-pid, SIGKILL)
        timedOut = true
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        break
      }
      usleep(2_000)
      polls += 1
      if polls % 50 == 0 { readLines() }
    }
    drain()
    readLines()
    let output = (try? Data(contentsOf: log)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    if status >> 8 == 127, output.contains("\(arguments[0]): not found") {
      throw WorkbookError("could not run `\(arguments[0])`: it is not on PATH.")
    }
    // The low seven bits of a wait status hold the signal that ended the process, if any.
    let signal = status & 0x7f
    return CommandResult(
      status: signal == 0 ? (status >> 8) & 0xff : 128 + signal,
      crashed: signal != 0 && !timedOut, timedOut: timedOut, output: output,
      standardOutput: String(decoding: written, as: UTF8.self))
  }

  /// Starts `arguments` as the leader of a new process group, with standard input empty and
  /// standard output and error both written to `output`, or standard output to the file
  /// descriptor `standardOutput`.
  private static func spawn(
    _ arguments: [String], in directory: URL, environment: [String: String], output: URL,
    standardOutput: Int32? = nil
  ) throws(WorkbookError) -> pid_t {
    #if canImport(Darwin)
      var actions: posix_spawn_file_actions_t?
      var attributes: posix_spawnattr_t?
    #else
      var actions = posix_spawn_file_actions_t()
      var attributes = posix_spawnattr_t()
    #endif
    posix_spawn_file_actions_init(&actions)
    posix_spawnattr_init(&attributes)
    defer {
      posix_spawn_file_actions_destroy(&actions)
      posix_spawnattr_destroy(&attributes)
    }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    if let standardOutput {
      posix_spawn_file_actions_adddup2(&actions, standardOutput, 1)
      posix_spawn_file_actions_addclose(&actions, standardOutput)
    } else {
      posix_spawn_file_actions_adddup2(&actions, 2, 1)
    }
    // Process group 0 means a new group whose number is the child's own process id.
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
    posix_spawnattr_setpgroup(&attributes, 0)

    // posix_spawn has no portable way to set the working directory, so a shell changes to it and
    // then replaces itself with the command, which keeps the group leader's process id.
    let command = ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", directory.path] + arguments
    let argv = command.map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv + envp { free(pointer) }
    }
    var pid: pid_t = 0
    let error = posix_spawn(&pid, command[0], &actions, &attributes, argv, envp)
    guard error == 0 else {
      throw WorkbookError(
        "could not run `\(arguments.joined(separator: " "))`: \(String(cString: strerror(error))).")
    }
    return pid
  }

  /// From now on, Ctrl-C (or a grader's SIGTERM) stops the running command's whole process group
  /// before the workbook exits: the command's group is not the terminal's, so it would otherwise
  /// be left running.
  static func stopCommandsOnInterrupt() {
    for number in [SIGINT, SIGTERM, SIGHUP] {
      _ = signal(number) { received in
        RunningGroups.signalAll(received)
        _exit(128 + received)
      }
    }
  }

  /// Whether standard output is a terminal, so that colour and progress lines make sense.
  static var isTerminal: Bool {
    isatty(STDOUT_FILENO) == 1
  }
}

/// The process groups of the commands running now, which the interrupt handler stops: the
/// workbook runs several test processes side by side. A fixed set of atomic slots, since a
/// signal handler may take no lock.
private enum RunningGroups {
  private static let capacity = 8
  /// Each slot holds a process group, or 0.
  nonisolated(unsafe) private static let slots: UnsafeMutablePointer<Atomic<pid_t>> = {
    let slots = UnsafeMutablePointer<Atomic<pid_t>>.allocate(capacity: capacity)
    for index in 0..<capacity { (slots + index).initialize(to: Atomic(0)) }
    return slots
  }()

  /// Keeps `group` in a free slot, and answers which, or `nil` when all are taken.
  static func add(_ group: pid_t) -> Int? {
    (0..<capacity).first { index in
      slots[index].compareExchange(expected: 0, desired: group, ordering: .sequentiallyConsistent)
        .exchanged
    }
  }

  static func remove(_ slot: Int?) {
    if let slot { slots[slot].store(0, ordering: .sequentiallyConsistent) }
  }

  static func signalAll(_ signal: Int32) {
    for index in 0..<capacity {
      let group = slots[index].load(ordering: .sequentiallyConsistent)
      if group > 0 { kill(-group, signal) }
    }
  }
}

/// Shows long work on standard error, in every mode (`--json` too): a line when it starts, each
/// step it reports while it runs, and how long each part took, such as "built in 41.2 s".
///
/// On a terminal a step replaces the one before it, on one line; in a log, such as a grader's,
/// one step every five seconds is enough to show the work goes on.
final class ProgressLine: Sendable {
  private struct State {
    var start = Date()
    var lastStep = Date.distantPast
    var stepShown = false
  }

  /// Guarded, since the test processes that run side by side are watched from threads of their own.
  private let state = Mutex(State())
  private let live = isatty(STDERR_FILENO) == 1

  init(_ message: String) {
    printError("\(message)…")
  }

  /// One step of the work, such as SwiftPM's `[12/40] Compiling WorkbookTestSupport …`.
  /// `always` shows it in a log too, however soon after the step before.
  func step(_ text: String, always: Bool = false) {
    state.withLock { state in
      if live {
        // Plain spaces rub out the step before, which works on any terminal, `TERM=dumb` included.
        let width = max(Terminal.columns - 1, 10)
        let line = String(("  " + text).prefix(width))
        FileHandle.standardError.write(
          Data(("\r" + line.padding(toLength: width, withPad: " ", startingAt: 0)).utf8))
        state.stepShown = true
      } else if always || Date().timeIntervalSince(state.lastStep) >= 5 {
        printError("  \(text)")
        state.lastStep = Date()
      }
    }
  }

  /// The seconds since the work, or its last part, began.
  var seconds: String {
    String(format: "%.1f", Date().timeIntervalSince(state.withLock { $0.start }))
  }

  /// Ends a part of the work: `done("built")` says "built in 41.2 s", and the next part's time
  /// starts now.
  func done(_ message: String = "done") {
    say("\(message) in \(seconds) s")
    state.withLock { $0.start = Date() }
  }

  /// Says `message` on a line of its own, after the last step.
  func say(_ message: String) {
    state.withLock { state in
      if state.stepShown {
        FileHandle.standardError.write(
          Data("\r\(String(repeating: " ", count: Terminal.columns - 1))\r".utf8))
        state.stepShown = false
      }
      printError("  \(message)")
    }
  }
}

/// Progress and errors go to standard error, so that `--json` output stays clean on standard output.
func printError(_ line: String) {
  FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// Writes `line` to standard output at once, unbuffered: `watch` runs for a long time, and whoever
/// reads its output (a terminal, a pipe, a script timing it) should see each verdict as it comes.
func printNow(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
