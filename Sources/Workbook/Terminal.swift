import Foundation

/// What the workbook knows of the terminal it prints to: its width, and whether to colour.
enum Terminal {
  /// The width to print to: `COLUMNS` when it is set, else the width of the terminal that
  /// standard output (or, when that is a pipe, standard error) shows, else 80.
  static var columns: Int { width ?? 80 }

  /// `COLUMNS`, or the terminal's width; `nil` when neither says, as in a script's log, which is
  /// then better left unwrapped.
  static var width: Int? {
    if let set = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init) {
      return max(set, 20)
    }
    for descriptor in [STDOUT_FILENO, STDERR_FILENO] {
      var size = winsize()
      #if canImport(Darwin)
        let asked = ioctl(descriptor, TIOCGWINSZ, &size)
      #else
        let asked = ioctl(descriptor, UInt(TIOCGWINSZ), &size)
      #endif
      if asked == 0, size.ws_col > 0 { return max(Int(size.ws_col), 20) }
    }
    return nil
  }

  /// Whether to colour standard output: only on a terminal, and never when `NO_COLOR` is set to
  /// anything (no-color.org) or `TERM` is `dumb`.
  static var usesColour: Bool {
    let environment = ProcessInfo.processInfo.environment
    return isatty(STDOUT_FILENO) == 1 && (environment["NO_COLOR"] ?? "").isEmpty
      && environment["TERM"] != "dumb"
  }

  /// `text` with each line longer than `width` broken at spaces. A continued line keeps the
  /// indentation of the line it continues, and a test's name (`✘ …`) continues under its first
  /// word. A timeline's lane (`caller A | 1 calls … · 2 …`) breaks between steps and continues
  /// under its first step. A single word or step longer than the line stays whole.
  static func wrap(_ text: String, width: Int?) -> String {
    guard let width else { return text }
    return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      wrapLine(String(line), width: width)
    }.joined(separator: "\n")
  }

  private static func wrapLine(_ line: String, width: Int) -> String {
    guard line.count > width else { return line }
    let leading = line.prefix { $0 == " " }.count
    let body = line.dropFirst(leading)
    var indent = leading
    var separator = " "
    if let bar = body.range(of: " | "),
      body.distance(from: body.startIndex, to: bar.lowerBound) < 30
    {
      indent = leading + body.distance(from: body.startIndex, to: bar.upperBound)
      separator = " · "
    } else if let symbol = body.first, "✔✘?".contains(symbol), body.dropFirst().first == " " {
      indent = leading + 2
    }
    // A continuation that would leave too little room goes back to the line's own indentation.
    if width - indent < 30 { indent = min(leading, max(width - 30, 0)) }
    var lines: [String] = []
    var current = String(line.prefix(leading))
    var fresh = true
    for word in body.components(separatedBy: separator) {
      if current.count + (fresh ? 0 : separator.count) + word.count > width, !fresh {
        lines.append(current + (separator == " " ? "" : " ·"))
        current = String(repeating: " ", count: indent) + word
      } else {
        current += (fresh ? "" : separator) + word
      }
      fresh = false
    }
    lines.append(current)
    return lines.joined(separator: "\n")
  }
}
