// Expected to fail: A cached image costs no second download
// Shares a running download but keeps nothing once it is done.
import Foundation
import Services

public actor ImageCache {
  private var downloads: [URL: Task<Image, any Error>] = [:]
  private let client: any ImageClient

  public init(client: any ImageClient) {
    self.client = client
  }

  public func image(for url: URL) async throws -> Image {
    if let running = downloads[url] {
      return try await running.value
    }
    let download = Task { try Image(data: try await client.data(from: url)) }
    downloads[url] = download
    defer { downloads[url] = nil }
    return try await download.value
  }
}
