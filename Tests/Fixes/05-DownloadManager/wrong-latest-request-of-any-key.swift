// Expected to fail: Each key shows as downloading while its own download runs
// Numbers the requests, and lets a call's cleanup remove its key's entry only while its number is
// the latest; but it keeps one latest number for every key, so a request for another key makes
// this call's entry outlive its download.
import Foundation
import Services

public actor DownloadManager {
  private var downloads: [String: Task<Image, any Error>] = [:]
  private var latest = 0
  private let client: any ImageClient

  public init(client: any ImageClient) {
    self.client = client
  }

  public func download(_ url: URL, for key: String) async throws -> Image {
    downloads[key]?.cancel()
    latest += 1
    let number = latest
    let download = Task { try Image(data: try await client.data(from: url)) }
    downloads[key] = download
    defer {
      if number == latest { downloads[key] = nil }
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
