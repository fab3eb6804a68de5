// Expected to fail: A caller who asks while the first caller has not yet resumed gets the same image
// Shares one download per URL in a task that takes itself off the list of running downloads as
// it ends, while the caller who started it stores the image only once it has resumed: a caller
// who asks in between finds neither, and downloads the picture again.
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
      // Gone as soon as it ends, so that nobody joins a download that has failed.
      defer { downloads[url] = nil }
      return try Image(data: try await client.data(from: url))
    }
    downloads[url] = download
    let image = try await download.value
    images[url] = image
    return image
  }
}
