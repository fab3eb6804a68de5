// Expected to fail: Five callers who ask at once share one download
// The download task asks the cache for its own URL, finds itself in flight, and waits forever.
import Foundation
import Services

public actor ImageCache {
  private enum Entry {
    case inFlight(Task<Image, any Error>)
    case ready(Image)
  }

  private var entries: [URL: Entry] = [:]
  private let client: any ImageClient

  public init(client: any ImageClient) {
    self.client = client
  }

  public func image(for url: URL) async throws -> Image {
    switch entries[url] {
    case .ready(let image): return image
    case .inFlight(let download): return try await download.value
    case nil: break
    }
    let download = Task { try await self.image(for: url) }
    entries[url] = .inFlight(download)
    let image = try await download.value
    entries[url] = .ready(image)
    return image
  }
}
