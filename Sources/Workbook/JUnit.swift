import Foundation

/// JUnit XML for graders and CI, made from the same entries as `results.json`: each test case
/// has the name its JSON entry has, and the type that declares it as its class name, so a grader
/// can match the two files entry by entry.
///
/// The file is well-formed XML 1.0 whatever the compiler or the tests printed: characters XML
/// does not allow, such as a terminal's colour codes, are removed or replaced, and tabs, carriage
/// returns and line feeds in attributes are written as character references, which a parser keeps.
enum JUnit {
  /// The document for `suites`, each a `<testsuite>` of its own name. A run whose
  /// status is `error` with no test of its own (the code did not compile) becomes one errored
  /// test case, `<suite> builds and runs its tests`, whose message is the run's.
  static func document(_ suites: [(name: String, results: Results)]) -> String {
    var lines = [#"<?xml version="1.0" encoding="UTF-8"?>"#]
    var body: [String] = []
    var totals = (tests: 0, failures: 0, errors: 0, seconds: 0.0)
    for (name, results) in suites {
      var tests = results.tests
      if tests.isEmpty, results.status == .error {
        tests = [
          Results.Test(
            name: "\(name) builds and runs its tests", status: .error, message: results.message,
            output: nil)
        ]
      }
      let failures = tests.filter { $0.status == .fail }.count
      let errors = tests.filter { $0.status == .error }.count
      let seconds = tests.compactMap(\.seconds).reduce(0, +)
      totals = (
        totals.tests + tests.count, totals.failures + failures, totals.errors + errors,
        totals.seconds + seconds
      )
      body.append(
        "  <testsuite name=\(attribute(name)) tests=\"\(tests.count)\" failures=\"\(failures)\" "
          + "errors=\"\(errors)\" skipped=\"0\" time=\"\(time(seconds))\">")
      body += tests.map(testCase)
      body.append("  </testsuite>")
    }
    lines.append(
      "<testsuites tests=\"\(totals.tests)\" failures=\"\(totals.failures)\" "
        + "errors=\"\(totals.errors)\" time=\"\(time(totals.seconds))\">")
    lines += body
    lines.append("</testsuites>")
    return lines.joined(separator: "\n") + "\n"
  }

  /// Writes the document for `suites` to `file`, which was checked when the command started,
  /// through a temporary file beside it and a rename.
  static func write(
    _ suites: [(name: String, results: Results)], to file: OutputFile
  ) throws(WorkbookError) {
    try file.write(Data(document(suites).utf8))
  }

  private static func testCase(_ test: Results.Test) -> String {
    let open =
      "    <testcase classname=\(attribute(test.classname)) name=\(attribute(test.name)) "
      + "time=\"\(time(test.seconds ?? 0))\""
    var inner: [String] = []
    let message = test.message ?? ""
    let summary = String(message.split(separator: "\n").first ?? "")
    switch test.status {
    case .pass: break
    case .fail:
      inner.append("      <failure message=\(attribute(summary))>\(text(message))</failure>")
    case .error:
      inner.append("      <error message=\(attribute(summary))>\(text(message))</error>")
    }
    if let printed = test.printed {
      inner.append("      <system-out>\(text(printed))</system-out>")
    }
    guard !inner.isEmpty else { return open + " />" }
    return ([open + ">"] + inner + ["    </testcase>"]).joined(separator: "\n")
  }

  private static func time(_ seconds: Double) -> String {
    String(format: "%.3f", seconds)
  }

  /// `value` as a quoted attribute value.
  static func attribute(_ value: String) -> String {
    var quoted = "\""
    for scalar in allowed(value).unicodeScalars {
      switch scalar {
      case "&": quoted += "&amp;"
      case "<": quoted += "&lt;"
      case ">": quoted += "&gt;"
      case "\"": quoted += "&quot;"
      case "'": quoted += "&apos;"
      // A parser turns a raw tab or line break in an attribute into a space; a reference stays.
      case "\t": quoted += "&#9;"
      case "\n": quoted += "&#10;"
      case "\r": quoted += "&#13;"
      default: quoted.unicodeScalars.append(scalar)
      }
    }
    return quoted + "\""
  }

  /// `value` as character data.
  static func text(_ value: String) -> String {
    var escaped = ""
    for scalar in allowed(value).unicodeScalars {
      switch scalar {
      case "&": escaped += "&amp;"
      case "<": escaped += "&lt;"
      case ">": escaped += "&gt;"
      // A parser would read a raw carriage return as a line feed.
      case "\r": escaped += "&#13;"
      default: escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped
  }

  /// `value` with the terminal's escape sequences (colours, cursor moves) removed and every other
  /// character that XML 1.0 does not allow replaced with U+FFFD.
  static func allowed(_ value: String) -> String {
    var result = String.UnicodeScalarView()
    var scalars = value.unicodeScalars.makeIterator()
    while let scalar = scalars.next() {
      if scalar == "\u{1B}" {
        // ESC [ parameters, then one final letter: a control sequence, dropped whole.
        guard let next = scalars.next() else { break }
        if next == "[" {
          while let part = scalars.next(), !(0x40...0x7E).contains(part.value) {}
        }
        continue
      }
      switch scalar.value {
      case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF:
        result.append(scalar)
      default:
        result.append("\u{FFFD}")
      }
    }
    return String(result)
  }
}
