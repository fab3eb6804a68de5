// Throws CancellationError whenever its entry was replaced or cancelled by the time the call
// resumes, even after its download answered: the promise leaves such a late-replaced request
// free to end either way.
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

  public func download(_ url: URL, for key: String) async throws -> Image {
    downloads[key]?.cancel()
    let client = self.client
    let download = Task {
      let data = try await client.data(from: url)
      return try Image(data: data)
    }
    downloads[key] = download
    let result = await download.result
    // Still ours? Then it is ours to clear. If not, this request was replaced or cancelled:
    // its image will not be shown, so it ends with a cancellation whatever its download did.
    guard downloads[key] == download else {
      throw CancellationError()
    }
    downloads[key] = nil
    return try result.get()
  }

  public func cancelDownload(for key: String) {
    downloads[key]?.cancel()
    downloads[key] = nil
  }

  public func isDownloading(for key: String) -> Bool {
    downloads[key] != nil
  }
}
