// Expected to fail: A caller who hears of a failure late leaves the next download alone
// Shares the download under way, but a caller who joined it and hears that it failed tries once
// more with a download of its own, kept off the record: if a newer download is running by then,
// the two run side by side.
import Foundation
import Services

/// Keeps downloaded images in memory, so that a screen showing the same picture twice downloads it
/// once.
public actor ImageCache {
  private var images: [URL: Image] = [:]
  private var downloads: [URL: Task<Image, any Error>] = [:]
  private let client: any ImageClient

  public init(client: any ImageClient) {
    self.client = client
  }

  /// The image at `url`: from memory when it was downloaded before, from the network otherwise.
  public func image(for url: URL) async throws -> Image {
    if let cached = images[url] {
      return cached
    }
    if let running = downloads[url] {
      do {
        return try await running.value
      } catch {
        // A blip on the network should not blank a cell that only joined: try once more.
        let image = try Image(data: try await client.data(from: url))
        if let stored = images[url] { return stored }
        images[url] = image
        return image
      }
    }
    let client = self.client
    let download = Task { try Image(data: try await client.data(from: url)) }
    downloads[url] = download
    defer { downloads[url] = nil }
    let image = try await download.value
    images[url] = image
    return image
  }
}
