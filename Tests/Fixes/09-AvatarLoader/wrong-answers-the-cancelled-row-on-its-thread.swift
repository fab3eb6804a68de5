// Expected to fail: Rows cancelled on other threads while their download finishes each hear back once
// Lets a cancelled row leave at once by answering it in the cancellation handler, from a table of
// waiters shared with the loader; but the handler runs on the thread that cancels, and the table
// has no lock: a row can be resumed twice, or lost, when a cancellation meets the download's end.
// Caught by the Thread Sanitizer (Scripts/check-threads).
import Foundation
import Services

/// Loads the avatars in a scrolling list. Many rows show the same person, so rows that ask for
/// the same avatar at once share one download; a row that scrolls away cancels its call.
public actor AvatarLoader {
  /// A download and the rows waiting for it.
  private final class SharedDownload: @unchecked Sendable {
    var task: Task<Void, Never>?
    var waiters: [UUID: CheckedContinuation<Image, any Error>] = [:]
  }

  private var downloads: [URL: SharedDownload] = [:]
  private let client: any ImageClient

  public init(client: any ImageClient) {
    self.client = client
  }

  /// The avatar at `url`, from the download already running for it if there is one.
  public func avatar(at url: URL) async throws -> Image {
    let waiter = UUID()
    let download = download(of: url)
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        if Task.isCancelled {
          continuation.resume(throwing: CancellationError())
        } else {
          download.waiters[waiter] = continuation
        }
      }
    } onCancel: {
      // A row that scrolls away is answered at once; the last one out calls the download off.
      download.waiters.removeValue(forKey: waiter)?.resume(throwing: CancellationError())
      if download.waiters.isEmpty {
        download.task?.cancel()
        Task { await self.forget(download, at: url) }
      }
    }
  }

  private func download(of url: URL) -> SharedDownload {
    if let running = downloads[url] { return running }
    let download = SharedDownload()
    downloads[url] = download
    download.task = Task {
      let result: Result<Image, any Error>
      do {
        result = .success(try Image(data: try await client.data(from: url)))
      } catch {
        result = .failure(error)
      }
      forget(download, at: url)
      let waiting = download.waiters
      download.waiters = [:]
      for continuation in waiting.values {
        continuation.resume(with: result)
      }
    }
    return download
  }

  private func forget(_ download: SharedDownload, at url: URL) {
    if downloads[url] === download { downloads[url] = nil }
  }
}
