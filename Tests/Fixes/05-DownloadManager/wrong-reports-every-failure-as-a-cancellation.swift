// Expected to fail: Requests and cancellations for one key, in every order, leave the latest request in charge
// Throws CancellationError for every failure, so a network error or bytes that are not an image
// read as a cancellation, and the view never offers to try again.
import Foundation
import Services

public actor DownloadManager {
  private var downloads: [String: Task<Image, any Error>] = [:]
  private let client: any ImageClient
  public init(client: any ImageClient) { self.client = client }

  public func download(_ url: URL, for key: String) async throws -> Image {
    downloads[key]?.cancel()
    let task = Task { try Image(data: try await client.data(from: url)) }
    downloads[key] = task
    defer { if downloads[key] == task { downloads[key] = nil } }
    do { return try await task.value } catch { throw CancellationError() }
  }

  public func cancelDownload(for key: String) {
    downloads[key]?.cancel()
    downloads[key] = nil
  }

  public func isDownloading(for key: String) -> Bool { downloads[key] != nil }
}
