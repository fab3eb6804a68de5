import Foundation
import Services

/// Loads the avatars in a scrolling list. Many rows show the same person, so rows that ask for
/// the same avatar at once share one download; a row that scrolls away cancels its call.
public actor AvatarLoader {
  private var downloads: [URL: Task<Image, any Error>] = [:]
  private let client: any ImageClient

  public init(client: any ImageClient) {
    self.client = client
  }

  /// The avatar at `url`, from the download already running for it if there is one.
  public func avatar(at url: URL) async throws -> Image {
    if let running = downloads[url] {
      return try await running.value
    }
    let download = Task {
      let data = try await client.data(from: url)
      return try Image(data: data)
    }
    downloads[url] = download
    defer { downloads[url] = nil }
    // A row that scrolls away should not keep its download running.
    return try await withTaskCancellationHandler {
      try await download.value
    } onCancel: {
      download.cancel()
    }
  }
}
