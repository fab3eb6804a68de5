// Expected to fail: Callers who ask after a failed download, while another caller of it has not heard yet, agree on one image
// Shares one download per URL; a caller who joined a download that failed tries once more with a
// download of its own, and stores what it gets. A caller who hears of the failure late brings
// another image than the callers who asked meanwhile got, and stores it over theirs.
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
      do {
        return try await running.value
      } catch {
        // Somebody else's download failed: this caller still wants its picture.
        let image = try Image(data: try await client.data(from: url))
        images[url] = image
        return image
      }
    }
    let download = Task { try Image(data: try await client.data(from: url)) }
    downloads[url] = download
    defer { downloads[url] = nil }
    let image = try await download.value
    images[url] = image
    return image
  }
}
