import Foundation
import ScheduleExplorer

/// A call for the image at a URL, as the image-cache chapters' explorations make it; its key is
/// the file name, such as `cat.png`.
public struct ImageCall: ExploredCall {
  public let url: URL
  public let key: String?
  private let name: String

  /// `image(for: cat.png)`, or another method's name in place of `image(for:)`.
  public init(_ method: String = "image(for:)", _ url: URL) {
    self.url = url
    key = url.lastPathComponent
    name = "\(method.dropLast(2)): \(url.lastPathComponent))"
  }

  public static func image(_ url: URL) -> Self { Self("image(for:)", url) }

  public var description: String { name }
}
