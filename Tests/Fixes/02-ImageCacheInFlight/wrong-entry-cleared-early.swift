// Expected to fail: A caller who asks just as the download finishes joins it instead of downloading again
// The download task forgets itself when it ends, before the caller has stored the image.
import Foundation
import Services

public actor ImageCache {
  private var images: [URL: Image] = [:]
  private var downloads: [URL: Task<Image, any Error>] = [:]
  private let client: any ImageClient

  public init(client: any ImageClient) {
    self.client = client
  }

  public func image(for url: URL) async throws -> Image {
    if let cached = images[url] {
      return cached
    }
    if let running = downloads[url] {
      return try await running.value
    }
    let download = Task {
      defer { downloads[url] = nil }
      return try Image(data: try await client.data(from: url))
    }
    downloads[url] = download
    let image = try await download.value
    images[url] = image
    return image
  }
}
