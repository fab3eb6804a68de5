// Expected to fail: A row cancelled before its call runs leaves no download running for nobody
// Starts the download before it checks whether the row still wants it, so that the picture comes
// sooner. A row that has already scrolled away throws without ever waiting, and the download it
// started, which nobody joins, is never cancelled.
import Foundation
import Services

/// Loads the avatars in a scrolling list. Many rows show the same person, so rows that ask for
/// the same avatar at once share one download; a row that scrolls away cancels its call.
public actor AvatarLoader {
  /// A download and the callers waiting for it. It belongs to all of them and to none: a caller
  /// who is cancelled leaves alone, and the download is cancelled only when nobody is left.
  private struct SharedDownload {
    let id: UUID
    let task: Task<Void, Never>
    var waiters: [UUID: CheckedContinuation<Image, any Error>] = [:]
  }

  private var downloads: [URL: SharedDownload] = [:]
  private let client: any ImageClient

  public init(client: any ImageClient) {
    self.client = client
  }

  /// The avatar at `url`, from the download already running for it if there is one.
  public func avatar(at url: URL) async throws -> Image {
    // Start the download at once, so that the picture comes as soon as it can; a row that has
    // already scrolled away need not wait for it.
    startDownload(of: url)
    try Task.checkCancellation()
    let waiter = UUID()
    // Each caller waits on a continuation of its own rather than on the shared task, so that a
    // cancelled caller can be answered at once while the others keep waiting.
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        join(url, as: waiter, continuation)
      }
    } onCancel: {
      Task { await self.leave(url, as: waiter) }
    }
  }

  private func startDownload(of url: URL) {
    if downloads[url] == nil {
      let id = UUID()
      let task = Task {
        let result: Result<Image, any Error>
        do {
          result = .success(try Image(data: try await client.data(from: url)))
        } catch {
          result = .failure(error)
        }
        finish(url, download: id, with: result)
      }
      downloads[url] = SharedDownload(id: id, task: task)
    }
  }

  private func join(
    _ url: URL, as waiter: UUID, _ continuation: CheckedContinuation<Image, any Error>
  ) {
    startDownload(of: url)
    downloads[url]?.waiters[waiter] = continuation
  }

  private func leave(_ url: URL, as waiter: UUID) {
    guard let continuation = downloads[url]?.waiters.removeValue(forKey: waiter) else { return }
    continuation.resume(throwing: CancellationError())
    // The last caller out cancels the work nobody is waiting for any more.
    if downloads[url]?.waiters.isEmpty == true {
      downloads.removeValue(forKey: url)?.task.cancel()
    }
  }

  private func finish(_ url: URL, download id: UUID, with result: Result<Image, any Error>) {
    // A download cancelled by its last caller may finish after a new one for the same URL began.
    guard downloads[url]?.id == id, let download = downloads.removeValue(forKey: url) else {
      return
    }
    for continuation in download.waiters.values {
      continuation.resume(with: result)
    }
  }
}
