// Expected to fail: Requests and cancellations for one key, in every order, leave the latest request in charge
// Remembers a cancelDownload(for:) that found nothing running, and the key's next request, which
// nobody cancelled, throws CancellationError without downloading.
import Foundation
import Services

public actor DownloadManager {
  private var downloads: [String: Task<Image, any Error>] = [:]
  private var cancelledEarly: Set<String> = []
  private let client: any ImageClient
  public init(client: any ImageClient) { self.client = client }

  public func download(_ url: URL, for key: String) async throws -> Image {
    if cancelledEarly.remove(key) != nil { throw CancellationError() }
    downloads[key]?.cancel()
    let task = Task { try Image(data: try await client.data(from: url)) }
    downloads[key] = task
    defer { if downloads[key] == task { downloads[key] = nil } }
    return try await task.value
  }

  public func cancelDownload(for key: String) {
    if let task = downloads.removeValue(forKey: key) {
      task.cancel()
    } else {
      cancelledEarly.insert(key)
    }
  }

  public func isDownloading(for key: String) -> Bool { downloads[key] != nil }
}
