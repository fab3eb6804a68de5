// Expected to fail: Different URLs download at the same time
// Every download waits for the one before it, whatever its URL.
import Foundation
import Services

public actor ImageCache {
  private var images: [URL: Image] = [:]
  private var previous: Task<Void, Never>?
  private let client: any ImageClient

  public init(client: any ImageClient) {
    self.client = client
  }

  public func image(for url: URL) async throws -> Image {
    let before = previous
    let turn = Task<Image, any Error> {
      await before?.value
      if let cached = images[url] { return cached }
      let image = try Image(data: try await client.data(from: url))
      images[url] = image
      return image
    }
    previous = Task { _ = try? await turn.value }
    return try await turn.value
  }
}
