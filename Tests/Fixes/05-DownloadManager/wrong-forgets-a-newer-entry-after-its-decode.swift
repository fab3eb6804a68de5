// Expected to fail: A newer request made while the older one is away from the actor with its bytes keeps its key
// Decides before its `@concurrent` decode that the key's entry is its own, and removes it after:
// a newer request recorded meanwhile loses its entry, and the key stops showing as downloading.
import Foundation
import Services

public actor DownloadManager {
  private var downloads: [String: Task<Data, any Error>] = [:]
  private let client: any ImageClient

  public init(client: any ImageClient) {
    self.client = client
  }

  public func download(_ url: URL, for key: String) async throws -> Image {
    downloads[key]?.cancel()
    let client = self.client
    let download = Task { try await client.data(from: url) }
    downloads[key] = download
    let data: Data
    do {
      data = try await download.value
    } catch {
      if downloads[key] == download { downloads[key] = nil }
      throw error
    }
    // Still ours once the bytes are back: forget it once the picture is made.
    let ours = downloads[key] == download
    defer { if ours { downloads[key] = nil } }
    return try await Self.decode(data)
  }

  public func cancelDownload(for key: String) {
    downloads[key]?.cancel()
    downloads[key] = nil
  }

  public func isDownloading(for key: String) -> Bool {
    downloads[key] != nil
  }

  @concurrent
  private nonisolated static func decode(_ data: Data) async throws -> Image {
    try Image(data: data)
  }
}
