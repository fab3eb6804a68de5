import Foundation
import ScheduleExplorer

extension URL {
  /// Pictures the image-cache chapters ask for. Nothing is fetched from these addresses: the
  /// tests hand the caches a ``FakeImageClient``.
  public static let cat = URL(string: "https://images.example.com/cat.png")!
  public static let dog = URL(string: "https://images.example.com/dog.png")!
}
