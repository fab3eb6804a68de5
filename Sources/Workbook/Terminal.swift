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
  /// indentation of the line it continues; a test's name (`✘ …`) and a list item (`- …`, `1. …`)
  /// continue under their first word, and a line of two columns (`  --json   print …`) under its
  /// second column. A timeline's lane (`caller A | 1 calls … · 2 …`) breaks between steps and
  /// continues under its first step; a step longer than the line breaks between its words and
  /// continues under the step's text. A single word longer than the line stays whole.
  ///
  /// With `reflowing`, `text` is prose written with line breaks of its own, such as a hints file
  /// or the usage: a paragraph (or list item, or column) with a line too long is joined and
  /// broken again, so that no line ends after a word or two. Fenced code blocks (```) are left
  /// as they are, since a line of code broken in two is no longer the same code.
  static func wrap(_ text: String, width: Int?, reflowing: Bool = false) -> String {
    guard let width else { return text }
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard reflowing else {
      return lines.map { wrapLine($0, width: width) }.joined(separator: "\n")
    }
    var wrapped: [String] = []
    var block: [String] = []
    var inCode = false
    func endBlock() {
      guard !block.isEmpty else { return }
      let joined =
        block.contains { $0.count > width }
        ? [
          ([block[0]] + block.dropFirst().map { $0.trimmingCharacters(in: .whitespaces) })
            .joined(separator: " ")
        ]
        : block
      wrapped += joined.map { wrapLine($0, width: width) }
      block = []
    }
    for line in lines {
      let fence = line.trimmingCharacters(in: .whitespaces).hasPrefix("```")
      if inCode || fence {
        endBlock()
        wrapped.append(line)
        if fence { inCode.toggle() }
      } else if line.trimmingCharacters(in: .whitespaces).isEmpty || line.hasPrefix("#") {
        endBlock()
        wrapped.append(line)
      } else if let first = block.first, hangingIndent(of: first) == leadingSpaces(line),
        hangingIndent(of: line) == leadingSpaces(line)
      {
        // A line that starts nothing of its own (no list item, no second column) and is
        // indented as the block's continuations are continues the block.
        block.append(line)
      } else {
        endBlock()
        block = [line]
      }
    }
    endBlock()
    return wrapped.joined(separator: "\n")
  }

  private static func leadingSpaces(_ line: String) -> Int {
    line.prefix { $0 == " " }.count
  }

  /// Where a continuation of `line` starts, by the rules of ``wrap(_:width:reflowing:)``, and
  /// where a timeline lane's steps start, if `line` is one.
  private static func hangingIndent(of line: String) -> Int {
    layout(of: line).indent
  }

  private static func layout(of line: String) -> (indent: Int, lane: Bool) {
    let leading = leadingSpaces(line)
    let body = line.dropFirst(leading)
    let offset = { (index: Substring.Index) in body.distance(from: body.startIndex, to: index) }
    // A lane's steps follow its bar, and no step holds two spaces in a row; a command's usage,
    // `help [COMMAND | N]   what…`, has a bar of its own before its second column.
    if let bar = body.range(of: " | "), offset(bar.lowerBound) < 30,
      body[bar.upperBound...].first == " " || !body[bar.upperBound...].contains("  ")
    {
      return (leading + offset(bar.upperBound), true)
    }
    if let symbol = body.first, "✔✘?-*•".contains(symbol), body.dropFirst().first == " " {
      return (leading + 2, false)
    }
    if let number = body.range(of: #"^[0-9]+\. "#, options: .regularExpression) {
      return (leading + offset(number.upperBound), false)
    }
    // Two columns: a short first one, then two spaces or more.
    if let gap = body.range(of: "  "), (1...32).contains(offset(gap.lowerBound)),
      let second = body[gap.upperBound...].firstIndex(where: { $0 != " " })
    {
      return (leading + offset(second), false)
    }
    return (leading, false)
  }

  private static func wrapLine(_ line: String, width: Int) -> String {
    guard line.count > width else { return line }
    let leading = leadingSpaces(line)
    let body = line.dropFirst(leading)
    let (stepsStart, lane) = layout(of: line)
    var indent = stepsStart
    // A continuation that would leave too little room goes back to the line's own indentation.
    if width - indent < (indent > leading && !lane ? 20 : 30) {
      indent = min(leading, max(width - 30, 0))
    }
    let head = String(line.prefix(leading))
    guard lane else {
      return fill(
        body.components(separatedBy: " "), separator: " ", head: head, indent: indent,
        width: width
      ).joined(separator: "\n")
    }
    let steps = fill(
      body.components(separatedBy: " · "), separator: " · ", head: head, indent: indent,
      width: width, mark: " ·")
    return steps.enumerated().flatMap { index, text -> [String] in
      let start = index == 0 ? stepsStart : indent
      let step = text.dropFirst(start)
      // Only a timeline's step (`8 fetch #1 fails: …`) breaks inside: a compiler's line of
      // code (`12 |     let x…`) has the same bar, and broken in two it is no longer the code.
      guard text.count > width, step.range(of: #"^[0-9]+ "#, options: .regularExpression) != nil
      else { return [text] }
      let number = step.prefix { $0 != " " }.count
      let hang = width - (start + number + 1) >= 20 ? start + number + 1 : start
      var words = step.components(separatedBy: " ")
      // The mark that ends a step stays with the step's last word.
      if words.count > 1, words.last == "·" {
        words.removeLast()
        words[words.count - 1] += " ·"
      }
      return fill(
        words, separator: " ", head: String(text.prefix(start)), indent: hang, width: width)
    }.joined(separator: "\n")
  }

  /// `pieces` laid out in lines of `width` at most, joined by `separator`: the first line starts
  /// with `head`, the next ones with `indent` spaces, and every line but the last ends in `mark`.
  private static func fill(
    _ pieces: [String], separator: String, head: String, indent: Int, width: Int,
    mark: String = ""
  ) -> [String] {
    var lines: [String] = []
    var current = head
    var fresh = true
    for piece in pieces {
      if !fresh, current.count + separator.count + piece.count + mark.count > width {
        lines.append(current + mark)
        current = String(repeating: " ", count: indent) + piece
      } else {
        current += (fresh ? "" : separator) + piece
      }
      fresh = false
    }
    lines.append(current)
    return lines
  }

  /// Prints `text`, prose, wrapped to the terminal's width (see ``wrap(_:width:reflowing:)``).
  static func say(_ text: String) {
    print(wrap(text, width: width, reflowing: true))
  }
}
