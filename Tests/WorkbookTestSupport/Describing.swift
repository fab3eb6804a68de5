import Foundation
import Services
import Testing

/// How a value or an error reads in a timeline and in a failure message.
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

extension Image: CustomTestStringConvertible {
  /// The number of the fake download that produced this image, as `image #3`.
  public var testDescription: String {
    FakeImageClient.downloadNumber(of: self).map { "image #\($0)" }
      ?? "an image of \(width)×\(height)"
  }
}

extension OrderBookSnapshot: CustomTestStringConvertible {
  public var testDescription: String {
    "snapshot #\(sequence)"
  }
}
