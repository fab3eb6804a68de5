/// Stops the program with `message` unless `condition` holds: a `precondition` on how a test uses
/// the library. An optimised build, as the workbook makes of this library, keeps a
/// `precondition`'s check but drops its message, so a test that forgot `.testScheduler` would
/// stop without a word; `fatalError` keeps its message in every build but `-Ounchecked`.
func checkUsage(
  _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
  file: StaticString = #fileID, line: UInt = #line
) {
  if !condition() { fatalError(message(), file: file, line: line) }
}
