import Foundation
import ScheduleExplorer

extension URL {
  /// Pictures the image-cache chapters ask for. Nothing is fetched from these addresses: the
  /// tests hand the caches a ``FakeImageClient``.
  public static let cat = URL(string: "https://images.example.com/cat.png")!
  public static let dog = URL(string: "https://images.example.com/dog.png")!
  /// Another picture whose address ends in the same file name as ``cat``.
  public static let catThumbnail = URL(string: "https://thumbnails.example.com/cat.png")!

  /// How the tests name the picture at this address: its path, such as `cat.png`, when it is on
  /// the course's image host, and its host and path otherwise, such as
  /// `thumbnails.example.com/cat.png`, so that two addresses are never one name.
  public var pictureName: String {
    host == "images.example.com" ? String(path.dropFirst()) : (host ?? "") + path
  }
}
