// Expected to fail: Three rows, with at most one unusual outcome and one cancellation, share downloads and leave alone
// Counts the rows of a URL, and the cancelled row's hop lowers the count of whatever download
// is under that URL when it arrives: a late hop, after a new row started a new download, calls that one off.
import Foundation
import Services

/// Loads the avatars in a scrolling list. Many rows show the same person, so rows that ask for
/// the same avatar at once share one download; a row that scrolls away cancels its call.
public actor AvatarLoader {
  /// One row's wait, which the download's end and the row's cancellation each try to resume;
  /// whichever comes first wins, under the lock.
  private final class Waiter: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Image, any Error>?
    private var cancelled = false

    /// Stores the continuation; false if the row was cancelled already.
    func wait(_ continuation: CheckedContinuation<Image, any Error>) -> Bool {
      lock.withLock {
        if cancelled { return false }
        self.continuation = continuation
        return true
      }
    }

    func cancel() -> CheckedContinuation<Image, any Error>? {
      lock.withLock {
        cancelled = true
        defer { continuation = nil }
        return continuation
      }
    }

    func take() -> CheckedContinuation<Image, any Error>? {
      lock.withLock {
        defer { continuation = nil }
        return continuation
      }
    }
  }
  private struct Download {
    let id: UUID
    let task: Task<Void, Never>
    var waiters: [Waiter]
    /// Rows still waiting; when it reaches zero the download is called off.
    var count: Int
  }
  private var downloads: [URL: Download] = [:]
  private let client: any ImageClient

  public init(client: any ImageClient) {
    self.client = client
  }

  public func avatar(at url: URL) async throws -> Image {
    let waiter = Waiter()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        guard waiter.wait(continuation) else {
          continuation.resume(throwing: CancellationError())
          return
        }
        if downloads[url] == nil {
          start(url)
        }
        downloads[url]?.waiters.append(waiter)
        downloads[url]?.count += 1
      }
    } onCancel: {
      if let continuation = waiter.cancel() {
        continuation.resume(throwing: CancellationError())
        Task { await self.leave(url) }
      }
    }
  }

  private func start(_ url: URL) {
    let client = self.client
    let id = UUID()
    let task = Task {
      let result: Result<Image, any Error>
      do {
        result = .success(try Image(data: try await client.data(from: url)))
      } catch {
        result = .failure(error)
      }
      self.finish(url, id: id, with: result)
    }
    downloads[url] = Download(id: id, task: task, waiters: [], count: 0)
  }

  private func finish(_ url: URL, id: UUID, with result: Result<Image, any Error>) {
    guard let download = downloads[url], download.id == id else { return }
    downloads[url] = nil
    for waiter in download.waiters {
      waiter.take()?.resume(with: result)
    }
  }

  /// A row of `url` has gone; the last one to go calls the download off.
  private func leave(_ url: URL) {
    guard var download = downloads[url] else { return }
    download.count -= 1
    if download.count == 0 {
      download.task.cancel()
      downloads[url] = nil
    } else {
      downloads[url] = download
    }
  }
}
