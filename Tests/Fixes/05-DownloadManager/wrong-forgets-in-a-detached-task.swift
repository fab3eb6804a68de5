// Expected to fail: A request that has returned no longer shows as downloading, even before other work has run
// Forgets a finished request's entry from a Task.detached that its defer starts: right after
// download(_:for:) returns, the key still shows as downloading until that task has run.
import Foundation
import Services

/// Downloads the images that a photo browser shows. Each download is for a key, such as the view
/// that will show it; a new request for a key replaces the one before it, because only the latest
/// one will be shown.
public actor DownloadManager {
  private var downloads: [String: Task<Image, any Error>] = [:]
  private let client: any ImageClient

  public init(client: any ImageClient) {
    self.client = client
  }

  /// Downloads the image at `url` for `key`, cancelling any download still running for that key.
  public func download(_ url: URL, for key: String) async throws -> Image {
    downloads[key]?.cancel()
    let download = Task {
      let data = try await client.data(from: url)
      return try Image(data: data)
    }
    downloads[key] = download
    defer {
      // Forget the download once it is over, unless a newer request has replaced it. The
      // bookkeeping need not hold up the caller, so it runs on its own.
      Task.detached { [weak self] in
        await self?.forget(download, for: key)
      }
    }
    return try await download.value
  }

  private func forget(_ download: Task<Image, any Error>, for key: String) {
    if downloads[key] == download {
      downloads[key] = nil
    }
  }

  /// Cancels the download running for `key`, for example when its view goes off screen.
  public func cancelDownload(for key: String) {
    downloads[key]?.cancel()
    downloads[key] = nil
  }

  /// Whether a download is running for `key`, so the view can show a spinner.
  public func isDownloading(for key: String) -> Bool {
    downloads[key] != nil
  }
}
