// Expected to fail: Cancelling a key cancels the download that is really running for it
// Asks whether the entry is its own, but before the `await`, when it always is.
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
    let download = Task { try Image(data: try await client.data(from: url)) }
    downloads[key] = download
    let isLatest = downloads[key] == download
    defer {
      if isLatest { downloads[key] = nil }
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
}
