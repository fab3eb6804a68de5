/// A problem the student can fix, reported as one plain sentence and what to do about it, never as
/// a stack trace.
struct WorkbookError: Error {
  let message: String
  let hint: String?

  init(_ message: String, hint: String? = nil) {
    self.message = message
    self.hint = hint
  }
}
