// Images and running downloads in two dictionaries; the download task stores its own image.
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
      let image = try Image(data: try await client.data(from: url))
      images[url] = image
      return image
    }
    downloads[url] = download
    return try await download.value
  }
}
