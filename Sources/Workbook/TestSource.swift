import Foundation

/// The body of a test function, read from its file, for the `test_code` that Exercism's
/// interface shows above a test's result.
enum TestSource {
  /// The statements of the first function declared at or after `line` (where Swift Testing
  /// places a test: its `@Test` attribute), without the braces and with the common indentation
  /// removed; `nil` when the file or the function cannot be read.
  static func body(in file: URL, at line: Int) -> String? {
    guard let text = try? String(contentsOf: file, encoding: .utf8) else { return nil }
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    guard line >= 1, line <= lines.count else { return nil }
    let rest = Array(lines[(line - 1)...].joined(separator: "\n").unicodeScalars)
    guard let function = find("func ", in: rest), let open = openingBrace(in: rest, from: function),
      let close = closingBrace(in: rest, after: open)
    else { return nil }
    var body = String(String.UnicodeScalarView(rest[(open + 1)..<close]))
      .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    while body.first?.allSatisfy(\.isWhitespace) == true { body.removeFirst() }
    while body.last?.allSatisfy(\.isWhitespace) == true { body.removeLast() }
    let indent =
      body.filter { !$0.allSatisfy(\.isWhitespace) }
      .map { $0.prefix { $0 == " " }.count }.min() ?? 0
    body = body.map { $0.allSatisfy(\.isWhitespace) ? "" : String($0.dropFirst(indent)) }
    return body.isEmpty ? nil : body.joined(separator: "\n")
  }

  private static func find(_ word: String, in text: [Unicode.Scalar]) -> Int? {
    let target = Array(word.unicodeScalars)
    guard text.count >= target.count else { return nil }
    return (0...(text.count - target.count)).first {
      Array(text[$0..<($0 + target.count)]) == target
    }
  }

  /// The `{` that opens the function's body: the first one outside the signature's parentheses.
  private static func openingBrace(in text: [Unicode.Scalar], from start: Int) -> Int? {
    var depth = 0
    for index in start..<text.count {
      switch text[index] {
      case "(": depth += 1
      case ")": depth -= 1
      case "{" where depth == 0: return index
      default: break
      }
    }
    return nil
  }

  /// The `}` that closes the brace at `open`, skipping braces inside comments and string
  /// literals, interpolations and multi-line and raw strings included.
  private static func closingBrace(in text: [Unicode.Scalar], after open: Int) -> Int? {
    var scanner = Scanner(text: text, index: open + 1)
    return scanner.skip(until: "}")
  }

  /// Walks Swift source one token-ish step at a time, knowing just enough of the grammar to step
  /// over what may hold an unbalanced bracket: comments and string literals.
  private struct Scanner {
    static let closers: [Unicode.Scalar: Unicode.Scalar] = ["{": "}", "(": ")", "[": "]"]
    let text: [Unicode.Scalar]
    var index: Int

    func starts(with literal: String, at position: Int) -> Bool {
      let scalars = Array(literal.unicodeScalars)
      guard position + scalars.count <= text.count else { return false }
      return Array(text[position..<(position + scalars.count)]) == scalars
    }

    /// Advances past balanced code until the unmatched `closer`, and returns its index.
    mutating func skip(until closer: Unicode.Scalar) -> Int? {
      while index < text.count {
        let scalar = text[index]
        if scalar == closer { return index }
        if starts(with: "//", at: index) {
          while index < text.count, text[index] != "\n" { index += 1 }
        } else if starts(with: "/*", at: index) {
          skipBlockComment()
        } else if scalar == "#" || scalar == "\"" {
          skipString()
          continue
        } else if let inner = Self.closers[scalar] {
          index += 1
          guard skip(until: inner) != nil else { return nil }
        }
        index += 1
      }
      return nil
    }

    private mutating func skipBlockComment() {
      var depth = 0
      while index < text.count {
        if starts(with: "/*", at: index) {
          depth += 1
          index += 2
        } else if starts(with: "*/", at: index) {
          depth -= 1
          index += 2
          if depth == 0 {
            index -= 1
            return
          }
        } else {
          index += 1
        }
      }
    }

    /// Steps over a string literal that starts at `index` (`"…"`, `"""…"""`, `#"…"#`), leaving
    /// `index` just past it; a lone `#` (such as `#expect`) is stepped over alone.
    private mutating func skipString() {
      var hashes = 0
      while index < text.count, text[index] == "#" {
        hashes += 1
        index += 1
      }
      guard index < text.count, text[index] == "\"" else { return }
      let multiline = starts(with: "\"\"\"", at: index)
      let quote = multiline ? "\"\"\"" : "\""
      index += quote.count
      let terminator = quote + String(repeating: "#", count: hashes)
      let escape = "\\" + String(repeating: "#", count: hashes)
      while index < text.count {
        if starts(with: terminator, at: index) {
          index += terminator.count
          return
        }
        if starts(with: escape, at: index) {
          index += escape.count
          if index < text.count, text[index] == "(" {
            index += 1
            _ = skip(until: ")")
          }
        }
        index += 1
      }
    }
  }
}
