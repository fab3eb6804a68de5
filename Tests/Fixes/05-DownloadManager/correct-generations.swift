// Numbers each request per key; only the latest number may remove the entry.
import Foundation
import Services

public actor DownloadManager {
  private var downloads: [String: (generation: Int, task: Task<Image, any Error>)] = [:]
  private var nextGeneration = 0
  private let client: any ImageClient

  public init(client: any ImageClient) {
    self.client = client
  }

  public func download(_ url: URL, for key: String) async throws -> Image {
    downloads[key]?.task.cancel()
    nextGeneration += 1
    let generation = nextGeneration
    let download = Task { try Image(data: try await client.data(from: url)) }
    downloads[key] = (generation, download)
    defer {
      if downloads[key]?.generation == generation { downloads[key] = nil }
    }
    return try await download.value
  }

  public func cancelDownload(for key: String) {
    downloads[key]?.task.cancel()
    downloads[key] = nil
  }

  public func isDownloading(for key: String) -> Bool {
    downloads[key] != nil
  }
}
