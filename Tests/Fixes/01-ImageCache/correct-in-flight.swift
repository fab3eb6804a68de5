// A fix from chapter 02 passes chapter 01 too: callers share one download.
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
    let download = Task { try Image(data: try await client.data(from: url)) }
    downloads[url] = download
    defer { downloads[url] = nil }
    let image = try await download.value
    images[url] = image
    return image
  }
}
