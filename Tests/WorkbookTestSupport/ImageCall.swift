import Foundation
import ScheduleExplorer

/// A call for the image at a URL, as the image-cache chapters' explorations make it; its key is
/// the picture's name, such as `cat.png` (see ``Foundation/URL/pictureName``).
public struct ImageCall: ExploredCall {
  public let url: URL
  public let key: String?
  private let name: String

  /// `image(for: cat.png)`, or another method's name in place of `image(for:)`.
  public init(_ method: String = "image(for:)", _ url: URL) {
    self.url = url
    key = url.pictureName
    name = "\(method.dropLast(2)): \(url.pictureName))"
  }

  public static func image(_ url: URL) -> Self { Self("image(for:)", url) }

  public var description: String { name }
}
