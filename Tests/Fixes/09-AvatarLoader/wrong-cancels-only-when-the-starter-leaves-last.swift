// Expected to fail: When every caller has given up, the download is cancelled
// Lets rows leave one by one, but cancels the download only when the row that started it leaves
// with nobody else waiting. When the starter leaves first and the last row after it, the
// download runs on for nobody, and a row that asks next joins it.
import Foundation
import Services

/// Loads the avatars in a scrolling list. Many rows show the same person, so rows that ask for
/// the same avatar at once share one download; a row that scrolls away cancels its call.
public actor AvatarLoader {
  private final class Download {
    var task: Task<Void, Never>?
    var starter: UUID?
    var waiters: [UUID: CheckedContinuation<Image, any Error>] = [:]
  }
  private var downloads: [URL: Download] = [:]
  private let client: any ImageClient

  public init(client: any ImageClient) {
    self.client = client
  }

  /// The avatar at `url`, from the download already running for it if there is one.
  public func avatar(at url: URL) async throws -> Image {
    let id = UUID()
    let download = downloads[url] ?? start(url, by: id)
    let key = ObjectIdentifier(download)
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        download.waiters[id] = continuation
        if Task.isCancelled { leave(url, key, id) }
      }
    } onCancel: {
      Task { await self.leave(url, key, id) }
    }
  }

  private func start(_ url: URL, by id: UUID) -> Download {
    let download = Download()
    download.starter = id
    downloads[url] = download
    download.task = Task {
      let result: Result<Image, any Error>
      do {
        let data = try await client.data(from: url)
        result = .success(try Image(data: data))
      } catch {
        result = .failure(error)
      }
      if downloads[url] === download { downloads[url] = nil }
      let waiters = download.waiters
      download.waiters = [:]
      for waiter in waiters.values { waiter.resume(with: result) }
    }
    return download
  }

  private func leave(_ url: URL, _ key: ObjectIdentifier, _ id: UUID) {
    guard let download = downloads[url], ObjectIdentifier(download) == key,
      let waiter = download.waiters.removeValue(forKey: id)
    else { return }
    waiter.resume(throwing: CancellationError())
    // The starter owns the download: when it leaves and nobody else waits, stop it.
    if id == download.starter && download.waiters.isEmpty {
      download.task?.cancel()
      downloads[url] = nil
    }
  }
}
