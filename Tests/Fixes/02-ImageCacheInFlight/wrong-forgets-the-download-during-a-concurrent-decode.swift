// Expected to fail: A caller who asks while the first caller has left the actor with its bytes joins its download
// Forgets the shared download once its bytes are back, then decodes them in a `@concurrent`
// function before it stores the image: a caller who asks meanwhile finds neither, and downloads again.
import Foundation
import Services

/// Keeps downloaded images in memory, so that a screen showing the same picture twice downloads it
/// once.
public actor ImageCache {
  private var images: [URL: Image] = [:]
  /// Downloads of bytes still on their way; callers who ask now wait for them.
  private var downloads: [URL: Task<Data, any Error>] = [:]
  private let client: any ImageClient

  public init(client: any ImageClient) {
    self.client = client
  }

  /// The image at `url`: from memory when it was downloaded before, from the network otherwise.
  public func image(for url: URL) async throws -> Image {
    if let image = images[url] {
      return image
    }
    if let download = downloads[url] {
      let data = try await download.value
      return try await Self.decode(data)
    }
    let download = Task { try await client.data(from: url) }
    downloads[url] = download
    let data: Data
    do {
      data = try await download.value
    } catch {
      downloads[url] = nil
      throw error
    }
    // The bytes are here: the download is over.
    downloads[url] = nil
    // Decoding a big picture takes a while; do it off the actor so other callers are not held up.
    let image = try await Self.decode(data)
    if let stored = images[url] {
      return stored
    }
    images[url] = image
    return image
  }

  @concurrent
  private nonisolated static func decode(_ data: Data) async throws -> Image {
    try Image(data: data)
  }
}
