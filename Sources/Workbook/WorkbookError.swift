/// A problem the student can fix, reported as one plain sentence and what to do about it, never as
/// a stack trace.
struct WorkbookError: Error {
  let message: String
  let hint: String?
  /// How the command exits when this error stops it.
  let exitCode: ExitCode

  init(_ message: String, hint: String? = nil, exitCode: ExitCode = .cannotRun) {
    self.message = message
    self.hint = hint
    self.exitCode = exitCode
  }

  /// A command line the workbook cannot read: it exits with ``ExitCode/usage``.
  static func usage(_ message: String, hint: String? = nil) -> WorkbookError {
    WorkbookError(message, hint: hint, exitCode: .usage)
  }
}
