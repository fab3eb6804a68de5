// Expected to fail: A caller who gives up on a replaced request leaves the newer download alone
// Passes a caller's own cancellation on to its download, but by key, with cancelDownload(for:):
// when a caller whose request was already replaced gives up, it cancels the newer request's
// download instead of its own.
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
    let download = Task { [client] in
      let data = try await client.data(from: url)
      return try Image(data: data)
    }
    downloads[key] = download
    defer {
      if downloads[key] == download { downloads[key] = nil }
    }
    return try await withTaskCancellationHandler {
      try await download.value
    } onCancel: {
      Task { await self.cancelDownload(for: key) }
    }
  }

  public func cancelDownload(for key: String) {
    downloads[key]?.cancel()
    downloads[key] = nil
  }

  public func isDownloading(for key: String) -> Bool {
    downloads[key] != nil
  }
}
