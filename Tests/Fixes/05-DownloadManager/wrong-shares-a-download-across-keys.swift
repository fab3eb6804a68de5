// Expected to fail: Cancelling one key leaves another key's download of the same image running
// Lets keys that show the same image share its download, so cancelling one key cancels the
// download that the other key is waiting for.
import Foundation
import Services

public actor DownloadManager {
  private var downloads: [String: Task<Image, any Error>] = [:]
  /// The download running for each image, whichever keys asked for it.
  private var byURL: [URL: Task<Image, any Error>] = [:]
  private let client: any ImageClient

  public init(client: any ImageClient) {
    self.client = client
  }

  public func download(_ url: URL, for key: String) async throws -> Image {
    downloads[key]?.cancel()
    let download: Task<Image, any Error>
    if let running = byURL[url], !running.isCancelled {
      download = running
    } else {
      download = Task { try Image(data: try await client.data(from: url)) }
      byURL[url] = download
    }
    downloads[key] = download
    defer {
      if downloads[key] == download { downloads[key] = nil }
      if byURL[url] == download && !downloads.values.contains(download) { byURL[url] = nil }
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
