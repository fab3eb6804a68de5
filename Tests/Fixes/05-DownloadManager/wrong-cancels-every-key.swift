// Expected to fail: Downloads for different keys run side by side
// A new request cancels everything, not just the download for its own key.
import Foundation
import Services

public actor DownloadManager {
  private var downloads: [String: Task<Image, any Error>] = [:]
  private let client: any ImageClient

  public init(client: any ImageClient) {
    self.client = client
  }

  public func download(_ url: URL, for key: String) async throws -> Image {
    for running in downloads.values { running.cancel() }
    let download = Task { try Image(data: try await client.data(from: url)) }
    downloads[key] = download
    defer {
      if downloads[key] == download { downloads[key] = nil }
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
