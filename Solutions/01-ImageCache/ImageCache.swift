import Foundation
import Services

/// Keeps downloaded images in memory, so that a screen showing the same picture twice downloads it
/// once.
public actor ImageCache {
  private var images: [URL: Image] = [:]
  private let client: any ImageClient

  public init(client: any ImageClient) {
    self.client = client
  }

  /// The image at `url`: from memory when it was downloaded before, from the network otherwise.
  public func image(for url: URL) async throws -> Image {
    if let cached = images[url] {
      return cached
    }
    let data = try await client.data(from: url)
    let image = try Image(data: data)
    // While this call waited for the network, the actor ran other callers, and one of them may
    // have stored an image for `url` already. Keep that one, so every caller shows the same image.
    if let stored = images[url] {
      return stored
    }
    images[url] = image
    return image
  }
}
