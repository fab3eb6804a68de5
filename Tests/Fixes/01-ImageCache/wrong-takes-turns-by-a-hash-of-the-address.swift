// Expected to fail: A hundred callers of different pictures all download at the same time
// Lets one caller at a time into each of 16 groups of addresses, picked by a hash of the address,
// so that a second caller of a URL finds the image the first one stored. Callers of two pictures
// whose addresses fall in one group wait for each other, and which do depends on the hash seed of
// the process: with cat.png and dog.png alone, it passes on some runs and fails on others.
import Foundation
import Services

/// Keeps downloaded images in memory, so that a screen showing the same picture twice downloads it
/// once.
public actor ImageCache {
  private var images: [URL: Image] = [:]
  private var busy = Array(repeating: false, count: 16)
  private var waiting: [[CheckedContinuation<Void, Never>]] = Array(repeating: [], count: 16)
  private let client: any ImageClient

  public init(client: any ImageClient) {
    self.client = client
  }

  /// The image at `url`: from memory when it was downloaded before, from the network otherwise.
  public func image(for url: URL) async throws -> Image {
    let group = Int(UInt(bitPattern: url.hashValue) % UInt(busy.count))
    while busy[group] {
      await withCheckedContinuation { waiting[group].append($0) }
    }
    busy[group] = true
    defer {
      busy[group] = false
      if !waiting[group].isEmpty {
        waiting[group].removeFirst().resume()
      }
    }
    if let cached = images[url] {
      return cached
    }
    let image = try Image(data: try await client.data(from: url))
    images[url] = image
    return image
  }
}
