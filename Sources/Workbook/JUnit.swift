import Foundation

/// JUnit XML for graders and CI, as Swift Testing writes it with `--xunit-output`.
enum JUnit {
  /// Swift Testing finishes its report only when a run ends. When the run could not end (the
  /// code does not compile, the tests crashed or were stopped), this writes in its place a report
  /// of one errored test case that says why, so that a grader always finds a whole file.
  static func writeIfUnfinished(_ url: URL, suite: String, error: String) throws(WorkbookError) {
    guard finished(url) == nil else { return }
    try write(
      [
        #"<?xml version="1.0" encoding="UTF-8"?>"#, "<testsuites>", errored(suite, error),
        "</testsuites>",
      ],
      to: url)
  }

  /// Joins Swift Testing's reports of several runs into one file, each run a `<testsuite>` named
  /// after it; a run without a report becomes a suite with one errored test case.
  static func merge(
    _ runs: [(suite: String, report: URL, error: String?)], into url: URL
  ) throws(WorkbookError) {
    var lines = [#"<?xml version="1.0" encoding="UTF-8"?>"#, "<testsuites>"]
    for run in runs {
      guard let text = finished(run.report) else {
        lines.append(errored(run.suite, run.error ?? "the tests did not run."))
        continue
      }
      // Swift Testing names its one suite "TestResults"; the run's own name says more.
      lines += text.split(separator: "\n").map(String.init)
        .filter { !$0.hasPrefix("<?xml") && $0 != "<testsuites>" && $0 != "</testsuites>" }
        .map {
          $0.replacingOccurrences(of: #"name="TestResults""#, with: "name=\"\(escape(run.suite))\"")
        }
    }
    lines.append("</testsuites>")
    try write(lines, to: url)
  }

  /// The report at `url`, if Swift Testing wrote it to its end.
  private static func finished(_ url: URL) -> String? {
    guard let text = try? String(contentsOf: url, encoding: .utf8), text.contains("</testsuites>")
    else { return nil }
    return text
  }

  private static func errored(_ suite: String, _ error: String) -> String {
    let name = escape(suite)
    return """
        <testsuite name="\(name)" errors="1" tests="1" failures="0" skipped="0" time="0">
          <testcase classname="\(name)" name="builds and runs its tests" time="0">
            <error message="\(escape(error))" />
          </testcase>
        </testsuite>
      """
  }

  private static func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
      .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
      .replacingOccurrences(of: "\n", with: "&#10;")
  }

  private static func write(_ lines: [String], to url: URL) throws(WorkbookError) {
    do {
      try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
    } catch {
      throw WorkbookError("could not write \(url.path): \(error.localizedDescription)")
    }
  }
}
