// Expected to fail: A row cancelled before its call runs leaves the download another row waits for
// Counts the rows waiting for each download, and a row whose task was cancelled before it asked
// is counted out twice, once as it arrives and once as it leaves: with one other row waiting, the
// count reaches zero and that row's download is cancelled under it.
import Foundation
import Services

/// Loads the avatars in a scrolling list. Many rows show the same person, so rows that ask for
/// the same avatar at once share one download; a row that scrolls away cancels its call.
public actor AvatarLoader {
  private final class Download {
    var task: Task<Void, Never>?
    var remaining = 0
    var waiters: [UUID: CheckedContinuation<Image, any Error>] = [:]
  }
  private var downloads: [URL: Download] = [:]
  private let client: any ImageClient

  public init(client: any ImageClient) {
    self.client = client
  }

  /// The avatar at `url`, from the download already running for it if there is one.
  public func avatar(at url: URL) async throws -> Image {
    let download = downloads[url] ?? start(url)
    let key = ObjectIdentifier(download)
    let id = UUID()
    download.remaining += 1
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        download.waiters[id] = continuation
        if Task.isCancelled { leave(url, key, id) }
      }
    } onCancel: {
      Task { await self.leave(url, key, id) }
    }
  }

  private func start(_ url: URL) -> Download {
    let download = Download()
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
    guard let download = downloads[url], ObjectIdentifier(download) == key else { return }
    download.waiters.removeValue(forKey: id)?.resume(throwing: CancellationError())
    download.remaining -= 1
    if download.remaining == 0 {
      download.task?.cancel()
      downloads[url] = nil
      for waiter in download.waiters.values { waiter.resume(throwing: CancellationError()) }
      download.waiters = [:]
    }
  }
}
