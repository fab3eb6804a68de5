// Expected to fail: A finished download no longer counts as running
// Never removes an entry, so a finished download still shows a spinner.
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
