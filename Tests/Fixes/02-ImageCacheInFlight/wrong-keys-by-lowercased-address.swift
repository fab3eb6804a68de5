// Expected to fail: An address that differs from another only in the case of its path downloads apart, and keeps its picture
// Keys its downloads and images by the lowercased address, as if case never mattered: a caller
// who asks for Cat.png joins the download of cat.png, and shows that picture.
import Foundation
import Services

/// Keeps downloaded images in memory, so that a screen showing the same picture twice downloads it
/// once.
public actor ImageCache {
  /// What the cache knows about one URL.
  private enum Entry {
    /// A download has started; callers who ask now wait for it instead of starting another.
    case inFlight(Task<Image, any Error>)
    /// The download finished; every caller gets this image.
    case ready(Image)
  }

  private var entries: [String: Entry] = [:]
  private let client: any ImageClient

  public init(client: any ImageClient) {
    self.client = client
  }

  /// The image at `url`: from memory when it was downloaded before, from the network otherwise.
  public func image(for url: URL) async throws -> Image {
    // One key per address, however it is spelt, so the same picture is never downloaded twice.
    let key = url.absoluteString.lowercased()
    switch entries[key] {
    case .ready(let image):
      return image
    case .inFlight(let download):
      return try await download.value
    case nil:
      break
    }
    // Record the download before the first `await`: a caller who runs while this one is suspended
    // then finds it and waits for it, instead of starting a download of its own.
    let download = Task {
      let data = try await client.data(from: url)
      return try Image(data: data)
    }
    entries[key] = .inFlight(download)
    do {
      let image = try await download.value
      entries[key] = .ready(image)
      return image
    } catch {
      // Forget the failure, so that the next caller downloads again instead of failing forever.
      entries[key] = nil
      throw error
    }
  }
}
