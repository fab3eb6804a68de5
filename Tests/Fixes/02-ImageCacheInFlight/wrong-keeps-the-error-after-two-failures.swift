// Expected to fail: A failed download fails every caller waiting for it, and the next call downloads again
// After two failed downloads of a URL in a row, hands the last failure to every caller for a
// minute instead of downloading again, so as not to hammer a broken address: a caller who asks
// after that gets a failure it never waited for.
import Foundation
import Services

/// Keeps downloaded images in memory, so that a screen showing the same picture twice downloads it
/// once.
public actor ImageCache {
  private enum Entry {
    case loading(Task<Image, any Error>)
    case ready(Image)
  }
  private struct Broken {
    var failures: Int
    var lastError: any Error
    var until: Date
  }
  private var entries: [URL: Entry] = [:]
  private var broken: [URL: Broken] = [:]
  private let client: any ImageClient

  public init(client: any ImageClient) {
    self.client = client
  }

  /// The image at `url`: from memory when it was downloaded before, from the network otherwise.
  public func image(for url: URL) async throws -> Image {
    switch entries[url] {
    case .ready(let image):
      return image
    case .loading(let task):
      return try await task.value
    case nil:
      break
    }
    if let failing = broken[url], failing.failures >= 2, failing.until > Date() {
      throw failing.lastError
    }
    let task = Task<Image, any Error> {
      do {
        let data = try await client.data(from: url)
        let image = try Image(data: data)
        entries[url] = .ready(image)
        broken[url] = nil
        return image
      } catch {
        entries[url] = nil
        let failures = (broken[url]?.failures ?? 0) + 1
        broken[url] = Broken(
          failures: failures, lastError: error, until: Date().addingTimeInterval(60))
        throw error
      }
    }
    entries[url] = .loading(task)
    return try await task.value
  }
}
