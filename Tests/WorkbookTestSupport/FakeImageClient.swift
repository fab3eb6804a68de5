import Foundation
import ScheduleExplorer
import Services

/// An ``ImageClient`` whose downloads wait until the test opens its gate.
///
/// Each download returns a different image, `image #1`, `image #2`, …, so a test can tell which
/// download a caller's image came from.
///
/// What ``ImageClient`` documents, and how this fake does it:
/// - "Downloads the bytes behind a URL": the outcome `image`.
/// - "The chapters' actors hold one of these": every download waits until the test lets it
///   finish, in any order.
/// - Besides: the outcome `error`, a ``FakeNetworkError``; the outcome `garbage`, bytes that are
///   not an image. A cancelled download throws `CancellationError` at once, or winds down and
///   ends as the outcome `cancelled` or, after ``mayEndCancelledLikeURLSession()``, as the
///   outcome `URLError.cancelled`; or it returns its bytes anyway
///   (``Requests/Cancellation/isIgnored``).
public final class FakeImageClient: ImageClient, FakeService {
  /// What a download hands back.
  public enum Outcome: String, RequestOutcome {
    /// A distinct, decodable image per download.
    case image
    /// A network failure.
    case failure = "error"
    /// Bytes that are not an image.
    case undecodableData = "garbage"
  }

  public let requests: Requests

  public init(_ scenario: Scenario) {
    requests = Requests(noun: "download", outcomes: Outcome.self, scenario: scenario)
  }

  /// What downloads hand back when the test lets them finish without choosing.
  public var outcome: Outcome {
    get { requests.defaultOutcome(as: Outcome.self)! }
    set { requests.setDefaultOutcome(newValue) }
  }

  /// How a cancelled download ends when it ends the way `URLSession`'s do: throwing
  /// `URLError(.cancelled)`, not Swift's `CancellationError`.
  public static let cancelledLikeURLSession = "URLError.cancelled"

  /// Lets a cancelled download that winds down also end as ``cancelledLikeURLSession``, so that
  /// the explorer tries both errors a cancelled download may throw.
  public func mayEndCancelledLikeURLSession() {
    requests.mayEndCancelled(as: Self.cancelledLikeURLSession) { URLError(.cancelled) }
  }

  /// How many downloads of `url` have started.
  public func downloads(of url: URL) -> Int {
    requests.started(for: url.pictureName)
  }

  public func data(from url: URL) async throws -> Data {
    try await requests.perform(for: url.pictureName, outcomes: Outcome.self) {
      number, outcome in
      switch outcome {
      case .image:
        let image = Self.image(number: number)
        return (image.encoded, "returns \(image.testDescription)")
      case .undecodableData:
        return (
          Data("<html>Service Unavailable</html>".utf8), "returns bytes that are not an image"
        )
      case .failure:
        throw FakeNetworkError(request: number)
      }
    }
  }

  /// The image that download `number` returns: one pixel whose colour spells the number.
  public static func image(number: Int) -> Image {
    Image(
      width: 1, height: 1,
      pixels: [
        UInt8(truncatingIfNeeded: number >> 16), UInt8(truncatingIfNeeded: number >> 8),
        UInt8(truncatingIfNeeded: number),
      ]
    )
  }

  /// The number of the download that returned `image`, if a fake made it.
  public static func downloadNumber(of image: Image) -> Int? {
    guard image.width == 1, image.height == 1 else { return nil }
    return image.pixels.reduce(0) { $0 << 8 | Int($1) }
  }
}

/// The error a fake request throws when the test asked it to fail.
public struct FakeNetworkError: Error, Equatable, CustomStringConvertible {
  /// The number of the request that failed.
  public let request: Int

  public var description: String {
    "the network connection was lost"
  }
}
