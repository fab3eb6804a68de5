// Expected to fail: Requests and cancellations for one key, in every order, leave the latest request in charge
// Lets a call's cleanup remove the entry only while it is for the same URL: a newer request for
// the same key and the same URL still loses its entry to the older call's cleanup.
import Foundation
import Services

public actor DownloadManager {
  private var downloads: [String: (url: URL, task: Task<Image, any Error>)] = [:]
  private let client: any ImageClient

  public init(client: any ImageClient) {
    self.client = client
  }

  public func download(_ url: URL, for key: String) async throws -> Image {
    downloads[key]?.task.cancel()
    let download = Task { try Image(data: try await client.data(from: url)) }
    downloads[key] = (url, download)
    defer {
      if downloads[key]?.url == url { downloads[key] = nil }
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
