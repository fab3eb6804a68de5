// Makes wrong fixes mechanically from one solution file, for `Scripts/mutate`, which compiles this
// file with `swiftc` (it is not part of the package) and runs each chapter's suite on each mutant.
//
// Usage: Mutator <solution file> <id prefix> <output folder>
//
// Writes every mutant to `<output folder>/<id>.swift` and prints one line a mutant, tab-separated:
// id, operator, line, function, description. The operators are the mistakes that matter in an
// actor, made line by line, so that each mutant is one small diff from the solution:
//
//   move-across-await  two adjacent statements swapped, one of them holding an `await`
//   swap-statements    two adjacent statements swapped, neither holding an `await`
//   drop-guard         a `guard` statement deleted
//   drop-condition     an `if` or `while` condition replaced with `true`, or one clause of a
//                      condition with several removed
//   drop-call          a `cancel()`, a `finish(…)` or a `resume(…)` deleted
//   flip-comparison    `<` `<=` `>` `>=` `==` `!=` `===` `!==` replaced as Stryker's equality
//                      operator does (`<` becomes `<=` and `>=`, `==` becomes `!=`, …)
//   identity           an identity compared as a value (`===` becomes `==`), an entry's presence
//                      checked where the fix checks whose it is (`entries[key] == mine` becomes
//                      `entries[key] != nil`), or a comparison inside an expression made `true`
//
// A mutant's id depends on the file, the enclosing function, the operator and the text it changes,
// never on a line number, so it stays the same when lines above it move. Identical mutants are made
// once. The parsing is by lines and brackets, which is enough for the solutions' plain style:
// comments and string literals are ignored, and a statement runs on until its brackets balance.

import Foundation

/// One line of the file, with its code alone: comments cut and string literals blanked, so that a
/// bracket or an operator in either is never taken for code. Columns in `code` match `text`.
struct SourceLine {
  let text: String
  let code: String

  init(_ text: String) {
    self.text = text
    var code = ""
    var inString = false
    var escaped = false
    var previous: Character = " "
    for character in text {
      if inString {
        if escaped {
          escaped = false
        } else if character == "\\" {
          escaped = true
        } else if character == "\"" {
          inString = false
          code.append(character)
          previous = character
          continue
        }
        code.append("_")
      } else if character == "/" && previous == "/" {
        code.removeLast()
        break
      } else {
        if character == "\"" { inString = true }
        code.append(character)
      }
      previous = character
    }
    self.code = code
  }

  var trimmed: String { code.trimmingCharacters(in: .whitespaces) }
  var indentation: String { String(text.prefix { $0 == " " }) }
  var bracketBalance: Int {
    code.reduce(0) { $0 + ("([{".contains($1) ? 1 : ")]}".contains($1) ? -1 : 0) }
  }
  var parenBalance: Int { code.reduce(0) { $0 + ($1 == "(" ? 1 : $1 == ")" ? -1 : 0) } }
}

/// A `{ … }` that spans lines: a type's body, a function's, a closure's or a statement's.
struct Block {
  /// The line with the `{`, the line with the matching `}`, and the first line of the declaration
  /// or statement that opens it (a signature may run over several lines).
  let open: Int
  let close: Int
  let header: Int
  /// A type's body holds declarations, whose order nobody can observe: no statement is moved there.
  let isTypeBody: Bool
}

/// A statement: its lines, without the comments before it, which stay where they are when it moves.
struct Statement {
  let lines: Range<Int>
}

/// What a block's body holds, in order. A `case` label sits between statements that are not
/// neighbours.
enum Item {
  case statement(Statement)
  case caseLabel
}

struct Mutant {
  let operatorName: String
  let line: Int
  let function: String
  let description: String
  /// What names the mutant: the change and the whole text it changes, without line numbers (a
  /// description may shorten a statement; the key never does).
  let key: String
  let lines: [String]
}

func words(_ code: String) -> [Substring] {
  code.split { !($0.isLetter || $0.isNumber || $0 == "_") }
}

func quoted(_ text: String) -> String { "\"\(text.trimmingCharacters(in: .whitespaces))\"" }

struct Source {
  let lines: [SourceLine]
  let blocks: [Block]

  init(_ text: String) {
    var rows = text.components(separatedBy: "\n")
    if rows.last == "" { rows.removeLast() }
    let lines = rows.map(SourceLine.init)
    self.lines = lines
    var stack: [Int] = []
    var found: [Block] = []
    for (index, line) in lines.enumerated() {
      for character in line.code {
        if character == "{" {
          stack.append(index)
        } else if character == "}", let open = stack.popLast(), open < index {
          var header = open
          var parens = lines[open].parenBalance
          while parens < 0 && header > 0 {
            header -= 1
            parens += lines[header].parenBalance
          }
          let opener = (header...open).map { lines[$0].code }.joined(separator: " ")
          let declaration = opener.prefix { $0 != "{" }
          let isType = words(String(declaration)).contains {
            ["actor", "class", "struct", "enum", "protocol", "extension"].contains($0)
          }
          found.append(Block(open: open, close: index, header: header, isTypeBody: isType))
        }
      }
    }
    blocks = found.sorted { $0.open < $1.open }
  }

  /// The statements and case labels directly inside `block`.
  func items(in block: Block) -> [Item] {
    var items: [Item] = []
    var index = block.open + 1
    while index < block.close {
      let code = lines[index].trimmed
      if code.isEmpty {
        index += 1
        continue
      }
      if code.hasPrefix("case ") || code.hasPrefix("default:") || code.hasPrefix("@unknown") {
        items.append(.caseLabel)
        index += 1
        continue
      }
      let start = index
      var balance = 0
      repeat {
        balance += lines[index].bracketBalance
        index += 1
      } while index < block.close && (balance > 0 || continues(after: index - 1))
      items.append(.statement(Statement(lines: start..<index)))
    }
    return items
  }

  /// Whether the statement on `index` goes on to the next line without an open bracket.
  private func continues(after index: Int) -> Bool {
    let code = lines[index].trimmed
    let next = lines[index + 1].trimmed
    return ["=", "&&", "||", "->", ","].contains { code.hasSuffix($0) }
      || [".", "&&", "||", "? ", ": "].contains { next.hasPrefix($0) }
  }

  /// The name of the function around `index`, such as `refresh` or `init`.
  func function(at index: Int) -> String {
    for block in blocks.reversed() where block.header <= index && index <= block.close {
      let header = words((block.header...block.open).map { lines[$0].code }.joined(separator: " "))
      if let position = header.firstIndex(of: "func"), position + 1 < header.count {
        return String(header[position + 1])
      }
      if header.contains("init") { return "init" }
      if header.contains("deinit") { return "deinit" }
    }
    return "(top level)"
  }

  /// Whether the statement itself may suspend: it holds an `await` outside any closure (an
  /// `await` in a `Task { … }` suspends the task, not the function that creates it).
  func holdsAwait(_ statement: Statement) -> Bool {
    let code = statement.lines.map { lines[$0].code }.joined(separator: "\n")
    var closures: [Bool] = []
    var segment = ""
    for character in code {
      switch character {
      case "{":
        closures.append(Self.opensClosure(after: segment))
        segment = ""
      case "}":
        _ = closures.popLast()
        segment = ""
      default:
        segment.append(character)
        if !closures.contains(true) && words(segment).last == "await" && !(character.isLetter) {
          return true
        }
      }
    }
    return !closures.contains(true) && words(segment).last == "await"
  }

  /// Whether a `{` that follows `text` (what came since the last brace) opens a closure, rather
  /// than the body of a statement (`if`, `do`, `catch`, `defer`, …) or of a declaration.
  static func opensClosure(after text: String) -> Bool {
    let found = words(text).map(String.init)
    let statements = [
      "if", "else", "guard", "for", "while", "repeat", "do", "catch", "switch", "defer",
    ]
    let declarations = [
      "func", "init", "deinit", "actor", "class", "struct", "enum", "protocol", "extension",
    ]
    if let first = found.first, statements.contains(first) { return false }
    return !found.contains { declarations.contains($0) }
  }

  /// What names a statement in a mutant's id: all of its code.
  func fullCode(of statement: Statement) -> String {
    statement.lines.map { lines[$0].trimmed }.joined(separator: " ")
  }

  /// How a description names a statement: its first line, and `…` when it runs on.
  func code(of statement: Statement) -> String {
    lines[statement.lines.lowerBound].trimmed + (statement.lines.count > 1 ? " …" : "")
  }
}

/// Makes every mutant of `source`.
struct Mutator {
  let source: Source
  var mutants: [Mutant] = []

  var texts: [String] { source.lines.map(\.text) }

  mutating func add(
    _ operatorName: String, at line: Int, _ description: String, key: String? = nil,
    _ lines: [String]
  ) {
    mutants.append(
      Mutant(
        operatorName: operatorName, line: line, function: source.function(at: line),
        description: description, key: key ?? description, lines: lines))
  }

  mutating func makeAll() {
    for block in source.blocks where !block.isTypeBody {
      let items = source.items(in: block)
      for case .statement(let statement) in items {
        dropGuard(statement)
        dropCondition(statement)
        dropCall(statement)
      }
      for (first, second) in zip(items, items.dropFirst()) {
        if case .statement(let a) = first, case .statement(let b) = second { swap(a, b) }
      }
    }
    for index in source.lines.indices where !inTypeBodyOnly(index) {
      comparisons(on: index)
    }
  }

  /// Whether `index` is a declaration of a type's body (a stored property, say), outside code.
  private func inTypeBodyOnly(_ index: Int) -> Bool {
    guard let innermost = source.blocks.last(where: { $0.open < index && index < $0.close })
    else { return true }
    return innermost.isTypeBody
  }

  // MARK: Statements moved

  private mutating func swap(_ a: Statement, _ b: Statement) {
    var lines = texts
    let first = Array(lines[a.lines])
    let second = Array(lines[b.lines])
    let between = Array(lines[a.lines.upperBound..<b.lines.lowerBound])
    lines.replaceSubrange(a.lines.lowerBound..<b.lines.upperBound, with: second + between + first)
    let moved = source.holdsAwait(a) || source.holdsAwait(b)
    // An initializer's plain stores happen before anyone else can reach the object.
    guard moved || source.function(at: a.lines.lowerBound) != "init" else { return }
    add(
      moved ? "move-across-await" : "swap-statements", at: a.lines.lowerBound,
      "move \(quoted(source.code(of: a))) below \(quoted(source.code(of: b)))",
      key: "move \(source.fullCode(of: a)) below \(source.fullCode(of: b))", lines)
  }

  // MARK: Checks dropped

  private mutating func dropGuard(_ statement: Statement) {
    let code = source.lines[statement.lines.lowerBound].trimmed
    guard code.hasPrefix("guard ") else { return }
    var lines = texts
    lines.removeSubrange(statement.lines)
    add(
      "drop-guard", at: statement.lines.lowerBound, "delete \(quoted(source.code(of: statement)))",
      key: "delete \(source.fullCode(of: statement))", lines)
  }

  private mutating func dropCondition(_ statement: Statement) {
    let index = statement.lines.lowerBound
    let line = source.lines[index]
    let code = Array(line.code)
    let text = Array(line.text)
    let keyword = ["if ", "while ", "guard "].first { line.trimmed.hasPrefix($0) }
    guard let keyword else { return }
    let start = line.indentation.count + keyword.count
    let end =
      keyword == "guard "
      ? line.code.range(of: " else", options: .backwards).map {
        line.code.distance(from: line.code.startIndex, to: $0.lowerBound)
      }
      : topLevel(" {", in: code, from: start)
    guard let end, start < end else { return }
    let condition = String(text[start..<end])
    let clauses = self.clauses(in: code, start..<end)
    let isBinding = { (clause: Range<Int>) in
      ["let ", "var ", "case ", "await "].contains { String(text[clause]).hasPrefix($0) }
    }
    if clauses.count == 1 {
      // A guard with one clause is dropped whole, by drop-guard.
      guard keyword != "guard ", !isBinding(clauses[0]) else { return }
      var lines = texts
      lines[index] = String(text[..<start]) + "true" + String(text[end...])
      add("drop-condition", at: index, "replace condition \(quoted(condition)) with true", lines)
      return
    }
    for (position, clause) in clauses.enumerated() where !isBinding(clause) {
      // The clause goes with the separator before it, or, for the first, the one after it.
      let removed =
        position == 0
        ? clause.lowerBound..<clauses[1].lowerBound
        : clauses[position - 1].upperBound..<clause.upperBound
      var kept = text
      kept.removeSubrange(removed)
      var lines = texts
      lines[index] = String(kept)
      add(
        "drop-condition", at: index,
        "remove \(quoted(String(text[clause]))) from \(quoted(condition))", lines)
    }
  }

  /// The clauses of the condition at `range`, without the spaces around them: split at top-level
  /// `,`, and at `&&` unless an `||` would make that change the meaning.
  private func clauses(in code: [Character], _ range: Range<Int>) -> [Range<Int>] {
    let splitsAnd = topLevel(" || ", in: Array(code[range]), from: 0) == nil
    var separators: [Range<Int>] = []
    var depth = 0
    var index = range.lowerBound
    while index < range.upperBound {
      let character = code[index]
      if "([{".contains(character) { depth += 1 }
      if ")]}".contains(character) { depth -= 1 }
      if depth == 0 && character == "," {
        separators.append(index..<index + 1)
      } else if depth == 0 && splitsAnd
        && code[index..<min(index + 4, range.upperBound)] == [" ", "&", "&", " "]
      {
        separators.append(index..<index + 4)
        index += 3
      }
      index += 1
    }
    var bounds = [range.lowerBound] + separators.flatMap { [$0.lowerBound, $0.upperBound] }
    bounds.append(range.upperBound)
    return stride(from: 0, to: bounds.count, by: 2).map { pair in
      var lower = bounds[pair]
      var upper = bounds[pair + 1]
      while lower < upper && code[lower] == " " { lower += 1 }
      while upper > lower && code[upper - 1] == " " { upper -= 1 }
      return lower..<upper
    }
  }

  /// Where `needle` first occurs in `code` from `start`, outside any bracket.
  private func topLevel(_ needle: String, in code: [Character], from start: Int) -> Int? {
    let needle = Array(needle)
    var depth = 0
    for index in start..<code.count {
      if depth == 0 && code[index...].starts(with: needle) { return index }
      if "([".contains(code[index]) { depth += 1 }
      if ")]".contains(code[index]) { depth -= 1 }
    }
    return nil
  }

  private mutating func dropCall(_ statement: Statement) {
    guard statement.lines.count == 1 else { return }
    let index = statement.lines.lowerBound
    let line = source.lines[index]
    var code = line.trimmed
    // A one-line `if cancelled { request.cancel() }` whose body is the call alone goes whole.
    if code.hasPrefix("if "), code.hasSuffix("}"), let open = code.firstIndex(of: "{") {
      code = String(code[code.index(after: open)..<code.index(before: code.endIndex)])
        .trimmingCharacters(in: .whitespaces)
    }
    let chain = code.prefix { $0.isLetter || $0.isNumber || "_.?".contains($0) }
    let called = chain.split(separator: ".").last.map { $0.trimmingCharacters(in: ["?"]) } ?? ""
    guard code.dropFirst(chain.count).hasPrefix("("),
      ["cancel", "finish", "resume"].contains(called)
    else {
      // `downloads.removeValue(forKey: url)?.task.cancel()` keeps what comes before the cancel.
      for suffix in ["?.cancel()", ".cancel()"] where code.hasSuffix(suffix) && code.contains("(") {
        let kept = code.dropLast(suffix.count)
        guard kept.contains("(") else { continue }
        var lines = texts
        lines[index] = line.indentation + "_ = " + kept
        add("drop-call", at: index, "drop the cancel() in \(quoted(line.code))", lines)
        return
      }
      return
    }
    var lines = texts
    lines.remove(at: index)
    add("drop-call", at: index, "delete \(quoted(line.code))", lines)
  }

  // MARK: Comparisons changed

  private static let flips: [String: [String]] = [
    "<": ["<=", ">="], "<=": ["<", ">"], ">": [">=", "<="], ">=": [">", "<"],
    "==": ["!="], "!=": ["=="], "===": ["!=="], "!==": ["==="],
  ]

  private mutating func comparisons(on index: Int) {
    let line = source.lines[index]
    let code = Array(line.code)
    let text = Array(line.text)
    var position = 1
    while position < code.count {
      guard code[position - 1] == " ", "<>=!".contains(code[position]) else {
        position += 1
        continue
      }
      var end = position
      while end < code.count && "<>=!".contains(code[end]) { end += 1 }
      let symbol = String(code[position..<end])
      guard end < code.count, code[end] == " ", let replacements = Self.flips[symbol] else {
        position = end
        continue
      }
      let before = String(text[..<position])
      let after = String(text[end...])
      let shown = quoted(line.code)
      for replacement in replacements {
        var lines = texts
        lines[index] = before + replacement + after
        add(
          "flip-comparison", at: index, "replace \(symbol) with \(replacement) in \(shown)", lines)
      }
      if symbol == "===" || symbol == "!==" {
        let value = symbol == "===" ? "==" : "!="
        var lines = texts
        lines[index] = before + value + after
        add(
          "identity", at: index, "compare values: replace \(symbol) with \(value) in \(shown)",
          lines)
      }
      if symbol == "==" || symbol == "===" {
        identity(on: index, operatorAt: position, length: end - position)
      }
      position = end
    }
  }

  /// For `left == right`: check that an entry is there rather than whose it is, and, inside an
  /// expression, compare nothing at all. (A comparison that is a whole `if` or `guard` clause is
  /// dropped by drop-condition and drop-guard already.)
  private mutating func identity(on index: Int, operatorAt position: Int, length: Int) {
    let line = source.lines[index]
    let code = Array(line.code)
    let text = Array(line.text)
    let leftStart = operandStart(code, before: position - 1)
    let rightEnd = operandEnd(code, after: position + length + 1)
    let left = String(code[leftStart..<(position - 1)])
    let right = String(code[(position + length + 1)..<rightEnd])
    let literals = ["true", "false", "nil"]
    guard !left.isEmpty, !right.isEmpty, !literals.contains(right), !literals.contains(left),
      right.first?.isNumber == false
    else { return }
    let shown = quoted(line.code)
    let comparison = "\(left) \(String(code[position..<(position + length)])) \(right)"
    if let open = left.firstIndex(of: "["), open != left.startIndex,
      left[..<open].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }),
      let close = left.firstIndex(of: "]")
    {
      let entry = String(left[...close])
      var lines = texts
      lines[index] = String(text[..<leftStart]) + "\(entry) != nil" + String(text[rightEnd...])
      add(
        "identity", at: index,
        "check presence: replace \(quoted(comparison)) with \(quoted("\(entry) != nil")) in \(shown)",
        lines)
    }
    let prefix = String(code[..<leftStart]).trimmingCharacters(in: .whitespaces)
    let suffix = String(code[rightEnd...]).trimmingCharacters(in: .whitespaces)
    let wholeClause =
      ["if", "guard", "while", ",", "&&"].contains { prefix.hasSuffix($0) }
      && ["{", ",", "else", "&&"].contains { suffix.hasPrefix($0) }
    guard !wholeClause else { return }
    var lines = texts
    lines[index] = String(text[..<leftStart]) + "true" + String(text[rightEnd...])
    add(
      "identity", at: index, "compare nothing: replace \(quoted(comparison)) with true in \(shown)",
      lines)
  }

  /// Where the operand that ends just before `end` starts: names, `.`, `?`, `!` and brackets.
  private func operandStart(_ code: [Character], before end: Int) -> Int {
    var start = end
    var depth = 0
    while start > 0 {
      let character = code[start - 1]
      if ")]".contains(character) {
        depth += 1
      } else if "([".contains(character) {
        if depth == 0 { break }
        depth -= 1
      } else if depth == 0
        && !(character.isLetter || character.isNumber || "_.?!".contains(character))
      {
        break
      }
      start -= 1
    }
    return start
  }

  private func operandEnd(_ code: [Character], after start: Int) -> Int {
    var end = start
    var depth = 0
    while end < code.count {
      let character = code[end]
      if "([".contains(character) {
        depth += 1
      } else if ")]".contains(character) {
        if depth == 0 { break }
        depth -= 1
      } else if depth == 0
        && !(character.isLetter || character.isNumber || "_.?!".contains(character))
      {
        break
      }
      end += 1
    }
    return end
  }
}

/// FNV-1a, 32 bits: a short name for a mutant that does not change from run to run.
func fingerprint(_ text: String) -> String {
  var hash: UInt32 = 2_166_136_261
  for byte in text.utf8 {
    hash = (hash ^ UInt32(byte)) &* 16_777_619
  }
  let digits = String(hash, radix: 16)
  return String(repeating: "0", count: 8 - digits.count) + digits
}

let arguments = CommandLine.arguments
guard arguments.count == 4 else {
  FileHandle.standardError.write(
    Data("usage: Mutator <solution file> <id prefix> <output folder>\n".utf8))
  exit(1)
}
let path = arguments[1]
let prefix = arguments[2]
let output = URL(fileURLWithPath: arguments[3])
guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
  FileHandle.standardError.write(Data("Mutator: cannot read \(path)\n".utf8))
  exit(1)
}
let source = Source(text)
var mutator = Mutator(source: source)
mutator.makeAll()

let file = URL(fileURLWithPath: path).lastPathComponent
var made: Set<[String]> = [source.lines.map(\.text)]
var occurrences: [String: Int] = [:]
try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
let ordered = mutator.mutants.enumerated().sorted {
  ($0.element.line, $0.offset) < ($1.element.line, $1.offset)
}.map(\.element)
for mutant in ordered where made.insert(mutant.lines).inserted {
  let name = "\(file)|\(mutant.function)|\(mutant.operatorName)|\(mutant.key)"
  occurrences[name, default: 0] += 1
  let id = "\(prefix)-\(fingerprint(name + "|\(occurrences[name]!)"))"
  let body = mutant.lines.joined(separator: "\n") + "\n"
  try body.write(
    to: output.appendingPathComponent("\(id).swift"), atomically: true, encoding: .utf8)
  print(
    [id, mutant.operatorName, String(mutant.line + 1), mutant.function, mutant.description].joined(
      separator: "\t"))
}
