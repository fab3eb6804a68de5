// Expected to fail: A download whose image is still being made still counts as running
// Removes the key's entry once the bytes are back, then decodes them in an `async let` child
// task: while the caller waits for it, the key no longer shows as downloading.
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
    let download = Task { [client] in try await client.data(from: url) }
    downloads[key] = download
    let data: Data
    do {
      data = try await download.value
    } catch {
      if downloads[key] == download { downloads[key] = nil }
      throw error
    }
    if downloads[key] == download { downloads[key] = nil }
    async let image = Image(data: data)
    return try await image
  }

  public func cancelDownload(for key: String) {
    downloads[key]?.cancel()
    downloads[key] = nil
  }

  public func isDownloading(for key: String) -> Bool {
    downloads[key] != nil
  }
}
