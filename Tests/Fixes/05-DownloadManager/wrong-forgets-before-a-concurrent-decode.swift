// Expected to fail: A download whose image is still being made still counts as running
// Forgets the key's entry once the bytes are back, then decodes them in a `@concurrent` function:
// while the caller is away decoding, the key no longer shows as downloading.
import Foundation
import Services

/// Downloads the images that a photo browser shows. Each download is for a key, such as the view
/// that will show it; a new request for a key replaces the one before it, because only the latest
/// one will be shown.
public actor DownloadManager {
  private var downloads: [String: Task<Data, any Error>] = [:]
  private let client: any ImageClient

  public init(client: any ImageClient) {
    self.client = client
  }

  /// Downloads the image at `url` for `key`, cancelling any download still running for that key.
  public func download(_ url: URL, for key: String) async throws -> Image {
    downloads[key]?.cancel()
    let download = Task { try await client.data(from: url) }
    downloads[key] = download
    let data: Data
    do {
      data = try await download.value
    } catch {
      forget(download, for: key)
      throw error
    }
    // The bytes are here, so nothing is downloading any more; a newer request may own the key.
    forget(download, for: key)
    // Decoding a big picture takes a while: keep it off the actor.
    return try await Self.decode(data)
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

  private func forget(_ download: Task<Data, any Error>, for key: String) {
    if downloads[key] == download {
      downloads[key] = nil
    }
  }

  @concurrent
  private nonisolated static func decode(_ data: Data) async throws -> Image {
    try Image(data: data)
  }
}
