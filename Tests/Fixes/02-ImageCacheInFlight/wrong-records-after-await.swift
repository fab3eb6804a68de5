// Expected to fail: Five callers who ask at once share one download
// Starts the download in a task but records it only once it has finished.
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
    let download = Task { try Image(data: try await client.data(from: url)) }
    let image = try await download.value
    entries[url] = .ready(image)
    return image
  }
}
