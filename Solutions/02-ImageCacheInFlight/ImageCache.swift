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

  private var entries: [URL: Entry] = [:]
  private let client: any ImageClient

  public init(client: any ImageClient) {
    self.client = client
  }

  /// The image at `url`: from memory when it was downloaded before, from the network otherwise.
  public func image(for url: URL) async throws -> Image {
    switch entries[url] {
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
    entries[url] = .inFlight(download)
    do {
      let image = try await download.value
      entries[url] = .ready(image)
      return image
    } catch {
      // Forget the failure, so that the next caller downloads again instead of failing forever.
      entries[url] = nil
      throw error
    }
  }
}
