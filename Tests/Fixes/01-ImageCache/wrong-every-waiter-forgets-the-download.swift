// Expected to fail: Callers who ask after a failed download, while another caller of it has not heard yet, agree on one image
// Shares one download per URL, and every caller who waited for it forgets it when done. After a
// failure, a caller who hears of it late forgets the newer download a later caller started, so the
// next caller downloads again, and two callers keep different images.
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
    let download: Task<Image, any Error>
    if let running = downloads[url] {
      download = running
    } else {
      let client = client
      download = Task { try Image(data: try await client.data(from: url)) }
      downloads[url] = download
    }
    // However the download ends, it is over: the next caller starts afresh.
    defer { downloads[url] = nil }
    let image = try await download.value
    images[url] = image
    return image
  }
}
