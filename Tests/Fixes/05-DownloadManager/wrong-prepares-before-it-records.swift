// Expected to fail: A request made while an older one for its key is away from the actor replaces it
// Cancels the key's download, then prepares its request in a `@concurrent` function before it
// records its own: a newer request made meanwhile cancels nothing, and is then replaced by it.
import Foundation
import Services

public actor DownloadManager {
  private var downloads: [String: Task<Image, any Error>] = [:]
  private let client: any ImageClient

  public init(client: any ImageClient) {
    self.client = client
  }

  public func download(_ url: URL, for key: String) async throws -> Image {
    downloads[key]?.cancel()
    // Build the request away from the actor, so the actor stays free for the screen.
    let address = await Self.prepare(url)
    let client = self.client
    let download = Task {
      let data = try await client.data(from: address)
      return try Image(data: data)
    }
    downloads[key] = download
    defer {
      if downloads[key] == download {
        downloads[key] = nil
      }
    }
    return try await download.value
  }

  public func cancelDownload(for key: String) {
    downloads[key]?.cancel()
    downloads[key] = nil
  }

  public func isDownloading(for key: String) -> Bool {
    downloads[key] != nil
  }

  @concurrent
  private nonisolated static func prepare(_ url: URL) async -> URL {
    URL(string: url.absoluteString) ?? url
  }
}
