import ScheduleExplorer
import Services
import Testing

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
