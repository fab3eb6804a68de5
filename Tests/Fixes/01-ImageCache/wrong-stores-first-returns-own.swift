// Expected to fail: Callers who ask for the same image at once all get the same image
// Keeps the first image in the cache but hands each caller its own download.
import Foundation
import Services

public actor ImageCache {
  private var images: [URL: Image] = [:]
  private let client: any ImageClient

  public init(client: any ImageClient) {
    self.client = client
  }

  public func image(for url: URL) async throws -> Image {
    if let cached = images[url] {
      return cached
    }
    let data = try await client.data(from: url)
    let image = try Image(data: data)
    if images[url] == nil {
      images[url] = image
    }
    return image
  }
}
