import Foundation

/// Picks what a student needs out of a wall of build or test output.
enum Diagnostics {
  /// The compiler's errors, each with the source excerpt the compiler prints under it, with those
  /// in `focus`'s folder first and paths relative to the workbook. `nil` when there are none.
  static func errors(in output: String, root: URL, focus: Chapter?) -> String? {
    var blocks: [String] = []
    var current: [String]?
    for text in Self.lines(of: output) {
      if text.contains(": error: "), text.hasPrefix("/") {
        if let block = current { blocks.append(block.joined(separator: "\n")) }
        current = [text.replacingOccurrences(of: root.path + "/", with: "")]
      } else if current != nil, text.contains(" |") || text.hasPrefix("   ") {
        current?.append(text)
      } else if let block = current {
        blocks.append(block.joined(separator: "\n"))
        current = nil
      }
    }
    if let block = current { blocks.append(block.joined(separator: "\n")) }
    var unique: [String] = []
    for block in blocks where !unique.contains(block) {
      unique.append(block)
    }
    guard !unique.isEmpty else { return nil }
    if let focus {
      let mine = unique.filter { $0.hasPrefix("Chapters/\(focus.folder)/") }
      if !mine.isEmpty { return mine.joined(separator: "\n\n") }
    }
    return unique.joined(separator: "\n\n")
  }

  /// The first `count` of the error blocks that ``errors(in:root:focus:)`` found, and a line
  /// that says how many more there are.
  static func first(_ count: Int, of errors: String) -> String {
    let blocks = errors.components(separatedBy: "\n\n")
    guard blocks.count > count else { return errors }
    let more = blocks.count - count
    return blocks.prefix(count).joined(separator: "\n\n")
      + "\n\n… and \(more) more error\(more == 1 ? "" : "s"): fix these first, since later errors"
      + " often follow from earlier ones."
  }

  /// The first `count` lines of `text`, and a line that says how many more there are; `nil`
  /// when `text` holds nothing but white space.
  static func firstLines(_ count: Int, of text: String) -> [String]? {
    var lines = Self.lines(of: text)
    while lines.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { lines.removeLast() }
    guard !lines.isEmpty else { return nil }
    guard lines.count > count else { return lines }
    return lines.prefix(count) + ["… and \(lines.count - count) more lines"]
  }

  /// The lines of a process's output, split at each line feed. Swift's `split` on a `Character`
  /// would miss the line feed after a carriage return, since the two are one `Character`: a
  /// crash message ending in "\r" then ran into the lines after it, the runtime's stack trace
  /// with them. A carriage return that ends a line is dropped with the line feed; one inside a
  /// line is the line's own.
  static func lines(of output: String) -> [String] {
    output.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      var text = Substring(line)
      if text.unicodeScalars.last == "\r" { text.unicodeScalars.removeLast() }
      return String(text)
    }
  }

  /// `text` with each control character but the line feed and the tab written out, as `\r` or
  /// `\u{1B}`: a terminal would act on it instead, moving back to the line's start or changing
  /// colours, and show the message garbled.
  static func visible(_ text: String) -> String {
    var shown = ""
    for scalar in text.unicodeScalars {
      if scalar == "\n" || scalar == "\t" || scalar.properties.generalCategory != .control {
        shown.unicodeScalars.append(scalar)
      } else if scalar == "\r" {
        shown += "\\r"
      } else {
        shown += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      }
    }
    return shown
  }

  /// Why a crashed test process stopped: the runtime's reason, such as
  /// `File.swift:12: Fatal error: …` or `… Precondition failed: …`, which names the file and line,
  /// with the lines of its message and without the stack trace after it; or, when the runtime
  /// printed no reason (an optimised module's `precondition` prints none), the last lines of the
  /// output, without the stack trace.
  /// `signal` is the one that stopped the process, if a signal did.
  static func crash(in output: String, signal: Int32? = nil) -> String {
    let lines = Self.lines(of: output).filter { !$0.isEmpty }
    let reasons = ["Fatal error", "Precondition failed", "Assertion failed"]
    if let start = lines.firstIndex(where: { line in reasons.contains { line.contains($0) } }) {
      // A message may span lines: they run until the stack trace, or until the test
      // library speaks again.
      let rest = lines[(start + 1)...].prefix { line in
        line != "Current stack trace:" && !line.hasPrefix("◇ ") && !line.hasPrefix("✘ ")
          && !line.hasPrefix("↳ ") && !line.hasPrefix("{\"kind\"")
      }
      return ([lines[start]] + rest.prefix(7)).joined(separator: "\n")
    }
    let told = lines.filter { line in
      line != "Current stack trace:"
        && line.range(of: #"^[0-9]+ +\S+ +0x[0-9a-f]+ "#, options: .regularExpression) == nil
    }
    let how =
      stopped(by: signal, in: output).map { "was stopped by \($0), with no message" }
      ?? "stopped without saying why"
    return "the test process \(how); its last lines were:\n"
      + told.suffix(8).joined(separator: "\n")
  }

  /// The signal that stopped the test process, in words: `signal`, or the one `swift test`
  /// reports ("exited with unexpected signal code 11"); `nil` when neither says.
  private static func stopped(by signal: Int32?, in output: String) -> String? {
    let reported = output.range(
      of: #"exited with unexpected signal code [0-9]+"#, options: .regularExpression
    ).flatMap { Int32(output[$0].split(separator: " ").last ?? "") }
    guard let number = signal ?? reported else { return nil }
    let meanings: [Int32: String] = [
      4: "SIGILL: on x86-64, a check that fails without a message, such as an arithmetic "
        + "overflow, stops a Swift program so",
      5: "SIGTRAP, a trap",
      6: "SIGABRT, an abort",
      11: "SIGSEGV, a segmentation fault: the code touched memory it does not own, such as an "
        + "object already freed",
    ]
    return "signal \(number)" + (meanings[number].map { " (\($0))" } ?? "")
  }
}
