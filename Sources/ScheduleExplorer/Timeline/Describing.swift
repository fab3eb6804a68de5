import Foundation
import Testing

/// How a value or an error reads in a timeline and in a failure message.
///
/// A type that conforms to Swift Testing's `CustomTestStringConvertible` reads as its
/// `testDescription`, so that a fake's answer can say where it came from (`image #3`); Swift's
/// `CancellationError` and Foundation's `URLError(.cancelled)` read by their names; anything else
/// reads as `String(describing:)` shows it.
public func describe(_ value: Any) -> String {
  if value is CancellationError {
    return "CancellationError"
  }
  if let error = value as? URLError, error.code == .cancelled {
    return "URLError(.cancelled)"
  }
  if let value = value as? any CustomTestStringConvertible {
    return value.testDescription
  }
  return String(describing: value)
}

extension CallerResult: CustomStringConvertible {
  /// `A got image #1`, or `B threw: request #2 failed: …`.
  public var description: String {
    switch result {
    case .success(let value): "\(caller) got \(describe(value))"
    case .failure(let error): "\(caller) threw: \(describe(error))"
    }
  }
}

/// What a group of callers got, in one line: `A got image #1, B got image #2`.
public func describe<Value>(_ results: [CallerResult<Value>]) -> String {
  results.map(\.description).joined(separator: ", ")
}
