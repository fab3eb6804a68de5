// Checks that every fake says how it produces each behaviour its protocol documents, for
// `Scripts/check-behaviours`, which compiles this file with `swiftc` (it is not part of the
// package) and runs it on the course.
//
// Usage: Behaviours <root of the course> [--list]
//   --list   print every behaviour each protocol documents, as a fake's list quotes it
//
// A protocol in Sources/Services documents what the real service may do, in its doc comments and
// its requirements' doc comments. Every sentence there, and every bullet, is one behaviour. Each
// type in Tests/WorkbookTestSupport that conforms to such a protocol carries, at the end of its own
// doc comment, a list that maps each of those behaviours to how the fake produces it:
//
//   /// What ``LegacyStatementClient`` documents, and how this fake does it:
//   /// - "with neither": the outcome `neither`, no statement and no error.
//   /// - "twice, when the request times out": not produced: ``FakeStatementClient`` times
//   ///   out.
//
// An entry quotes the opening words of one behaviour, enough to tell it from the others, and says
// how the fake produces it, or "not produced" and why. An entry that quotes nothing says what the
// protocol's signature allows besides (an error thrown, a cancelled request). The check fails,
// one sentence per drift, when a behaviour is quoted by no entry, a quote matches no behaviour or
// more than one, a "not produced" gives no reason, an outcome the fake declares is named by no
// entry ("the outcome `x`", "the outcomes `x` and `y`"), or an entry names an outcome the fake does
// not declare. It also checks that every row of the behaviours tables in Docs/Instructors.md
// names a service that exists, and, as `A=x`, only outcomes that the service's fakes declare.
//
// The parsing is by lines and braces, which is enough for the services' and fakes' plain style.
// It prints the drifts, one a line, and exits 1; or prints what it checked and exits 0.

import Foundation

/// One Swift file, as lines.
struct SourceFile {
  /// The path from the course's root, as messages name it.
  let path: String
  let lines: [String]

  /// The text of `line` without its comment and with its string literals blanked, so that a brace
  /// in either is not counted.
  func code(_ line: Int) -> String {
    var code = ""
    var inString = false
    var escaped = false
    var previous: Character = " "
    for character in lines[line] {
      if inString {
        if escaped {
          escaped = false
        } else if character == "\\" {
          escaped = true
        } else if character == "\"" {
          inString = false
          code.append(character)
        } else {
          code.append("_")
        }
      } else if character == "/" && previous == "/" {
        code.removeLast()
        break
      } else {
        if character == "\"" { inString = true }
        code.append(character)
      }
      previous = character
    }
    return code
  }

  /// The line that closes the `{` opened on `line` or after it, or the last line.
  func end(ofBodyFrom line: Int) -> Int {
    var depth = 0
    var opened = false
    for index in line..<lines.count {
      for character in code(index) {
        if character == "{" {
          depth += 1
          opened = true
        } else if character == "}" {
          depth -= 1
        }
      }
      if opened && depth <= 0 { return index }
    }
    return lines.count - 1
  }

  /// The `///` comment right above `line`, without the slashes: each line's index and text.
  func documentation(above line: Int) -> [(line: Int, text: String)] {
    var start = line
    while start > 0 {
      let above = lines[start - 1].trimmingCharacters(in: .whitespaces)
      if above.hasPrefix("///") || above.hasPrefix("@") {
        start -= 1
      } else {
        break
      }
    }
    return (start..<line).compactMap { index in
      let trimmed = lines[index].trimmingCharacters(in: .whitespaces)
      guard trimmed.hasPrefix("///") else { return nil }
      let rest = trimmed.dropFirst(3)
      return (index, String(rest.hasPrefix(" ") ? rest.dropFirst() : rest))
    }
  }
}

/// A type declared in a file, and the names after its colon.
struct Declaration {
  let name: String
  let kind: String
  let conformances: [String]
  let line: Int
  /// The last line of its body.
  let end: Int

  /// Every declaration of a protocol, class, struct, actor, enum or extension in `file`.
  static func all(in file: SourceFile) -> [Declaration] {
    let kinds: Set = ["protocol", "class", "struct", "actor", "enum", "extension"]
    let modifiers: Set = [
      "public", "private", "fileprivate", "internal", "package", "final", "open", "indirect",
    ]
    var found: [Declaration] = []
    for index in file.lines.indices {
      let code = file.code(index)
      var words = code.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
      while let first = words.first, modifiers.contains(first) { words.removeFirst() }
      guard words.count >= 2, kinds.contains(words[0]) else { continue }
      let name = String(words[1].prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." })
      var conformances: [String] = []
      if let colon = code.firstIndex(of: ":") {
        let list = code[code.index(after: colon)...].prefix { $0 != "{" && $0 != "<" }
        let clause = list.components(separatedBy: " where ")[0]
        conformances = clause.split(separator: ",").compactMap { entry in
          entry.split(separator: " ").last.map(String.init)
        }
      }
      found.append(
        Declaration(
          name: name, kind: words[0], conformances: conformances, line: index,
          end: file.end(ofBodyFrom: index)))
    }
    return found
  }
}

/// One thing a protocol documents: a sentence of a doc comment, or one of its bullets.
struct Behaviour {
  let text: String
  let path: String
  let line: Int
}

/// Splits a doc comment into its behaviours: each bullet is one, and each sentence of the prose.
/// A sentence that ends in a colon introduces the bullets after it, and says nothing of its own;
/// parameter bullets name an argument.
/// Each comes with the index of the line it starts on.
func behaviours(in documentation: [(line: Int, text: String)]) -> [(line: Int, text: String)] {
  var found: [(line: Int, text: String)] = []
  var paragraph: [(line: Int, text: String)] = []
  var bullet: [(line: Int, text: String)] = []
  var inCode = false
  func flushParagraph() {
    // A sentence starts on the line that holds its first word.
    var offsets: [(offset: Int, line: Int)] = []
    var text = ""
    for (line, words) in paragraph {
      if !text.isEmpty { text += " " }
      offsets.append((normalized(text).count, line))
      text += words
    }
    paragraph = []
    var position = 0
    for sentence in sentences(of: text) {
      let line = offsets.last { $0.offset <= position }?.line ?? 0
      position += sentence.count + 1
      if !sentence.hasSuffix(":") { found.append((line, sentence)) }
    }
  }
  func flushBullet() {
    if let first = bullet.first {
      let text = normalized(bullet.map(\.text).joined(separator: " "))
      if !text.lowercased().hasPrefix("parameter"), !text.isEmpty {
        found.append(
          (first.line, text.trimmingCharacters(in: CharacterSet(charactersIn: ";.,"))))
      }
    }
    bullet = []
  }
  for (index, line) in documentation {
    if line.hasPrefix("```") {
      inCode.toggle()
      continue
    }
    if inCode { continue }
    if line.hasPrefix("- ") {
      flushBullet()
      flushParagraph()
      bullet = [(index, String(line.dropFirst(2)))]
    } else if line.hasPrefix("  "), !bullet.isEmpty {
      bullet.append((index, line))
    } else if line.trimmingCharacters(in: .whitespaces).isEmpty {
      flushBullet()
      flushParagraph()
    } else {
      flushBullet()
      paragraph.append((index, line))
    }
  }
  flushBullet()
  flushParagraph()
  return found
}

/// The sentences of `text`: each ends in a full stop, a question mark or an exclamation mark that a
/// space and a capital letter or a backtick follow, or at the end.
func sentences(of text: String) -> [String] {
  let characters = Array(normalized(text))
  var found: [String] = []
  var current = ""
  for (index, character) in characters.enumerated() {
    current.append(character)
    let ends =
      ".?!".contains(character) && index + 2 < characters.count && characters[index + 1] == " "
      && (characters[index + 2].isUppercase || characters[index + 2] == "`")
    if ends {
      found.append(current.trimmingCharacters(in: .whitespaces))
      current = ""
    }
  }
  let last = current.trimmingCharacters(in: .whitespaces)
  if !last.isEmpty { found.append(last) }
  return found
}

func normalized(_ text: String) -> String {
  text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
}

/// A fake's list of what one protocol documents.
struct Mapping {
  /// One line of the list: the words it quotes from the protocol, if any, and what it says.
  struct Entry {
    let quote: String?
    let how: String
  }

  let service: String
  let entries: [Entry]

  /// The lists in a fake's doc comment: each opens with a line "What ``P`` documents, …:" and
  /// holds the bullets right after it.
  static func all(in comment: [(line: Int, text: String)]) -> [Mapping] {
    let documentation = comment.map(\.text)
    var found: [Mapping] = []
    var index = 0
    while index < documentation.count {
      let line = documentation[index]
      index += 1
      guard line.hasPrefix("What ``"), let close = line.range(of: "`` documents") else { continue }
      let service = String(line[line.index(line.startIndex, offsetBy: 7)..<close.lowerBound])
      var bullets: [String] = []
      while index < documentation.count {
        let next = documentation[index]
        if next.hasPrefix("- ") {
          bullets.append(String(next.dropFirst(2)))
        } else if next.hasPrefix("  "), !bullets.isEmpty {
          bullets[bullets.count - 1] += " " + next
        } else {
          break
        }
        index += 1
      }
      found.append(Mapping(service: service, entries: bullets.map(Entry.init(parsing:))))
    }
    return found
  }
}

extension Mapping.Entry {
  /// `"opening words": how`, or an entry that quotes nothing.
  init(parsing bullet: String) {
    let text = normalized(bullet)
    if text.hasPrefix("\""),
      let end = text.range(of: "\": ", range: text.index(after: text.startIndex)..<text.endIndex)
    {
      quote = String(text[text.index(after: text.startIndex)..<end.lowerBound])
      how = String(text[end.upperBound...])
    } else {
      quote = nil
      how = text
    }
  }

  /// The outcomes it names: each backticked name after the word "outcome" or "outcomes", as in
  /// "the outcomes `statement` and `error`".
  var outcomes: [String] {
    var found: [String] = []
    var rest = Substring(how)
    while let word = rest.range(of: "outcome") {
      rest = rest[word.upperBound...]
      if rest.hasPrefix("s") { rest = rest.dropFirst() }
      // The names follow, joined by commas, "and" and "or"; the longest joiner that fits wins.
      while true {
        var probe = rest
        if let joiner = [", and ", ", or ", " and ", " or ", ", ", " "].first(where: {
          probe.hasPrefix($0)
        }) {
          probe = probe.dropFirst(joiner.count)
        }
        guard probe.hasPrefix("`"), !probe.hasPrefix("``") else { break }
        let name = probe.dropFirst()
        guard let close = name.firstIndex(of: "`") else { break }
        found.append(String(name[..<close]))
        rest = name[name.index(after: close)...]
      }
    }
    return found
  }

  /// Whether it says the fake does not produce the behaviour, and, if so, whether it says why.
  var notProduced: (Bool, givesReason: Bool) {
    guard how.lowercased().hasPrefix("not produced") else { return (false, true) }
    let reason = how.dropFirst("not produced".count).trimmingCharacters(
      in: CharacterSet(charactersIn: " .,:;()—-"))
    return (true, reason.split(separator: " ").count >= 2)
  }
}

/// A type in the test support that conforms to a service protocol.
struct Fake {
  let name: String
  let path: String
  let service: String
  let mappings: [Mapping]
  /// The outcomes its requests declare.
  let outcomes: [String]
  /// Whether its requests are a ``Requests`` log, whose cancelled requests may end as `cancelled`.
  let keepsRequests: Bool
}

/// The outcomes declared in lines `range` of `file`: the strings in `outcomes: [...]`, the raw
/// values of an `enum Outcome: String` when `outcomes:` lists its cases or names the type, and the
/// first argument of every `mayEndCancelled(as:throwing:)`.
func outcomes(in file: SourceFile, lines range: ClosedRange<Int>) -> [String] {
  let text = range.map { file.lines[$0] }.joined(separator: "\n")
  var found: [String] = []
  func strings(in part: Substring) -> [String] {
    part.split(separator: "\"", omittingEmptySubsequences: false).enumerated()
      .filter { $0.offset % 2 == 1 }.map { String($0.element) }
  }
  func constant(_ name: Substring) -> String? {
    let bare = name.hasPrefix("Self.") ? name.dropFirst(5) : name
    for line in range.map({ file.lines[$0] }) where line.contains("static let \(bare) = \"") {
      return strings(in: Substring(line)).first
    }
    return nil
  }
  var rest = Substring(text)
  while let label = rest.range(of: "outcomes: ") {
    rest = rest[label.upperBound...]
    if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
      found += strings(in: rest[..<close])
    } else if rest.hasPrefix("Outcome.allCases") || rest.hasPrefix("Outcome.self") {
      found += enumOutcomes(in: file, lines: range)
    }
  }
  rest = Substring(text)
  // The call may be wrapped, its first argument on a line of its own.
  while let call = rest.range(of: "mayEndCancelled(") {
    rest = rest[call.upperBound...].drop { $0.isWhitespace }
    guard rest.hasPrefix("as: ") else { continue }
    rest = rest.dropFirst(4)
    if rest.hasPrefix("\"") {
      found += strings(in: rest.prefix { $0 != ")" && $0 != "," }).prefix(1)
    } else if let value = constant(rest.prefix { $0.isLetter || $0.isNumber || $0 == "." }) {
      found.append(value)
    }
  }
  return found
}

/// The raw values of the `enum Outcome: String` declared in lines `range` of `file`.
func enumOutcomes(in file: SourceFile, lines range: ClosedRange<Int>) -> [String] {
  guard
    let declaration = Declaration.all(in: file).first(where: {
      $0.kind == "enum" && $0.name == "Outcome" && range.contains($0.line)
    })
  else { return [] }
  return (declaration.line...declaration.end).compactMap { index in
    let code = file.lines[index].trimmingCharacters(in: .whitespaces)
    guard code.hasPrefix("case ") else { return nil }
    let parts = code.dropFirst(5).components(separatedBy: "=")
    if parts.count == 2 {
      return parts[1].trimmingCharacters(in: CharacterSet(charactersIn: " \""))
    }
    return parts[0].trimmingCharacters(in: .whitespaces)
  }
}

func swiftFiles(under folder: URL, root: URL) -> [SourceFile] {
  let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
  var files: [SourceFile] = []
  while let url = enumerator?.nextObject() as? URL {
    guard url.pathExtension == "swift", let text = try? String(contentsOf: url, encoding: .utf8)
    else { continue }
    let path = String(
      url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
    files.append(SourceFile(path: path, lines: text.components(separatedBy: "\n")))
  }
  return files.sorted { $0.path < $1.path }
}

/// What each protocol in Sources/Services documents, in the order of its files and their lines.
func documentedBehaviours(root: URL) -> [(service: String, behaviours: [Behaviour])] {
  var found: [(service: String, behaviours: [Behaviour])] = []
  for file in swiftFiles(under: root.appendingPathComponent("Sources/Services"), root: root) {
    for declaration in Declaration.all(in: file) where declaration.kind == "protocol" {
      var list = behaviours(in: file.documentation(above: declaration.line)).map {
        Behaviour(text: $0.text, path: file.path, line: $0.line + 1)
      }
      for line in (declaration.line + 1)...declaration.end {
        let code = file.code(line).trimmingCharacters(in: .whitespaces)
        guard code.hasPrefix("func ") || code.hasPrefix("var ") || code.hasPrefix("init")
        else { continue }
        list += behaviours(in: file.documentation(above: line)).map {
          Behaviour(text: $0.text, path: file.path, line: $0.line + 1)
        }
      }
      found.append((declaration.name, list))
    }
  }
  return found
}

/// The drifts between the services, their fakes and Docs/Instructors.md, one sentence each, and a
/// line that says what was checked.
func check(root: URL) -> (problems: [String], summary: String) {
  let servicesFolder = "Sources/Services"
  let fakesFolder = "Tests/WorkbookTestSupport"
  for folder in [servicesFolder, fakesFolder] {
    var isFolder: ObjCBool = false
    guard
      FileManager.default.fileExists(
        atPath: root.appendingPathComponent(folder).path, isDirectory: &isFolder),
      isFolder.boolValue
    else {
      return (["\(folder)/ is missing, so no fake can be checked against its protocol."], "")
    }
  }

  let services = documentedBehaviours(root: root)
  let documented = Dictionary(services, uniquingKeysWith: { first, _ in first })
  let protocolOrder = services.map(\.service)

  // Every type of the test support that conforms to one of them.
  var fakes: [Fake] = []
  for file in swiftFiles(under: root.appendingPathComponent(fakesFolder), root: root) {
    for declaration in Declaration.all(in: file) where declaration.kind != "protocol" {
      let mappings = Mapping.all(in: file.documentation(above: declaration.line))
      let body = declaration.line...declaration.end
      // A type's body holds the types nested in it, whose outcomes would count as its own too;
      // no fake nests one that declares outcomes.
      for service in declaration.conformances where documented[service] != nil {
        fakes.append(
          Fake(
            name: declaration.name, path: file.path, service: service, mappings: mappings,
            outcomes: outcomes(in: file, lines: body),
            keepsRequests: body.contains { file.lines[$0].contains("Requests(") }))
      }
    }
  }

  var problems: [String] = []
  for service in protocolOrder where !fakes.contains(where: { $0.service == service }) {
    problems.append(
      "\(service) has no fake in \(fakesFolder)/ that conforms to it, so no test can produce what "
        + "it documents.")
  }
  for fake in fakes {
    let behaviours = documented[fake.service] ?? []
    let lists = fake.mappings.filter { $0.service == fake.service }
    guard let list = lists.first else {
      problems.append(
        "\(fake.name) (\(fake.path)) conforms to \(fake.service) and does not say how it produces "
          + "what \(fake.service) documents: end its doc comment with a list that opens \"What "
          + "``\(fake.service)`` documents, and how this fake does it:\".")
      continue
    }
    let subject = "\(fake.name)'s list of what \(fake.service) documents (\(fake.path))"
    var quoted = Set<Int>()
    for entry in list.entries {
      if let quote = entry.quote {
        let matches = behaviours.indices.filter { behaviours[$0].text.hasPrefix(normalized(quote)) }
        if matches.isEmpty {
          problems.append(
            "\(subject) quotes \"\(quote)\", which \(fake.service) no longer documents: quote "
              + "the opening words of one of its sentences or bullets as they read now.")
        } else if matches.count > 1 {
          problems.append(
            "\(subject) quotes \"\(quote)\", which opens \(matches.count) of the behaviours "
              + "\(fake.service) documents: quote enough words to tell one from the others.")
        }
        quoted.formUnion(matches)
      }
      let (notProduced, givesReason) = entry.notProduced
      if entry.how.trimmingCharacters(in: .whitespaces).isEmpty {
        problems.append(
          "\(subject) quotes \"\(entry.quote ?? "")\" and says nothing of how the fake produces "
            + "it.")
      } else if notProduced && !givesReason {
        problems.append(
          "\(subject) says \"\(entry.quote ?? entry.how)\" is not produced, and not why.")
      }
    }
    for index in behaviours.indices where !quoted.contains(index) {
      let behaviour = behaviours[index]
      // Its opening words, up to the first comma or colon, at most five of them.
      let opening = behaviour.text.prefix { !",:;.".contains($0) }.split(separator: " ")
        .prefix(5).joined(separator: " ")
      problems.append(
        "\(fake.service) documents \"\(behaviour.text)\" (\(behaviour.path):\(behaviour.line)), "
          + "and \(fake.name) does not say how it produces it or why not: add `- \"\(opening)\": "
          + "…` to its list in \(fake.path).")
    }
    let named = Set(lists.flatMap(\.entries).flatMap(\.outcomes))
    let available = Set(fake.outcomes + (fake.keepsRequests ? ["cancelled"] : []))
    for outcome in fake.outcomes where !named.contains(outcome) {
      problems.append(
        "\(fake.name) (\(fake.path)) declares the outcome `\(outcome)`, and its list of what "
          + "\(fake.service) documents names it nowhere: say which behaviour it produces.")
    }
    for outcome in lists.flatMap(\.entries).flatMap(\.outcomes).uniqued()
    where !available.contains(outcome) {
      problems.append(
        "\(subject) names the outcome `\(outcome)`, which \(fake.name) does not declare.")
    }
  }
  let tables = tableProblems(root: root, fakes: fakes, services: Set(protocolOrder))
  problems += tables.problems

  let behaviourCount = protocolOrder.map { documented[$0]?.count ?? 0 }.reduce(0, +)
  let outcomeCount = Set(fakes.flatMap { fake in fake.outcomes.map { "\(fake.name).\($0)" } })
    .count
  return (
    problems,
    "the \(fakes.count) fakes of \(protocolOrder.count) services say how they produce each of the "
      + "\(behaviourCount) behaviours the services document, and name their \(outcomeCount) "
      + "outcomes; the \(tables.rows) rows of Docs/Instructors.md's behaviours tables name only "
      + "services and outcomes that exist"
  )
}

/// In Docs/Instructors.md, a behaviours table is one whose header has a "Service" column, and each
/// of its rows names a service as `` `P` (NN) ``: P must be a protocol of Sources/Services, and
/// each `A=x` or `A.key=x` in the row an outcome of one of P's fakes.
/// Returns the problems, and how many rows it read.
func tableProblems(
  root: URL, fakes: [Fake], services: Set<String>
) -> (problems: [String], rows: Int) {
  let path = "Docs/Instructors.md"
  guard let text = try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
  else { return (["\(path) is missing, so its behaviours tables cannot be checked."], 0) }
  var problems: [String] = []
  var rows = 0
  var serviceColumn: Int?
  for (number, line) in text.components(separatedBy: "\n").enumerated() {
    guard line.hasPrefix("|") else {
      serviceColumn = nil
      continue
    }
    let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    guard let column = serviceColumn else {
      // The first line of a table is its header.
      serviceColumn = cells.firstIndex { $0.hasPrefix("Service") } ?? -1
      continue
    }
    guard column >= 0, column < cells.count, cells[column].hasPrefix("`"),
      let service = cells[column].split(separator: "`").first.map(String.init)
    else { continue }
    rows += 1
    guard services.contains(service) else {
      problems.append(
        "\(path):\(number + 1) names the service \(service), which Sources/Services does not "
          + "declare.")
      continue
    }
    let available = Set(
      fakes.filter { $0.service == service }.flatMap {
        $0.outcomes + ($0.keepsRequests ? ["cancelled"] : [])
      })
    let spans = line.split(separator: "`", omittingEmptySubsequences: false).enumerated()
      .filter { $0.offset % 2 == 1 }.map(\.element)
    for span in spans {
      guard let equals = span.firstIndex(of: "="), let first = span.first, first.isUppercase,
        span[..<equals].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." })
      else { continue }
      let outcome = String(span[span.index(after: equals)...])
      if !available.contains(outcome) {
        problems.append(
          "\(path):\(number + 1) names the outcome `\(outcome)` of \(service) (`\(span)`), "
            + "which none of its fakes declares.")
      }
    }
  }
  if rows == 0 {
    problems.append(
      "\(path) holds no behaviours table (a table with a \"Service\" column whose rows name a "
        + "protocol such as `ImageClient`), so none could be checked.")
  }
  return (problems, rows)
}

extension Sequence where Element: Hashable {
  func uniqued() -> [Element] {
    var seen = Set<Element>()
    return filter { seen.insert($0).inserted }
  }
}

let arguments = CommandLine.arguments
guard arguments.count == 2 || (arguments.count == 3 && arguments[2] == "--list") else {
  FileHandle.standardError.write(Data("usage: Behaviours <root of the course> [--list]\n".utf8))
  exit(2)
}
let root = URL(fileURLWithPath: arguments[1], isDirectory: true)
if arguments.count == 3 {
  for (service, behaviours) in documentedBehaviours(root: root) {
    print(service)
    for behaviour in behaviours {
      print("  - \"\(behaviour.text)\"")
    }
  }
  exit(0)
}
let (problems, summary) = check(root: root)
if problems.isEmpty {
  print(summary)
} else {
  for problem in problems {
    print(problem)
  }
  exit(1)
}
