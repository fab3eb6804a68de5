// Expected to fail: Rows cancelled one after another, in the order they asked, leave the last row its image
// Keeps a download's waiting rows in an array, and a cancelled row removes the place it joined at:
// once A has left, B's place is C's, and B's cancellation fails C.
import Foundation
import Services

/// Loads the avatars in a scrolling list. Many rows show the same person, so rows that ask for
/// the same avatar at once share one download; a row that scrolls away cancels its call.
public actor AvatarLoader {
  private struct SharedDownload {
    let id: UUID
    let task: Task<Void, Never>
    var waiters: [CheckedContinuation<Image, any Error>] = []
  }

  private var downloads: [URL: SharedDownload] = [:]
  /// Where each row joined its download's list.
  private var positions: [UUID: (download: UUID, index: Int)] = [:]
  private let client: any ImageClient

  public init(client: any ImageClient) {
    self.client = client
  }

  /// The avatar at `url`, from the download already running for it if there is one.
  public func avatar(at url: URL) async throws -> Image {
    let waiter = UUID()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        join(url, as: waiter, continuation)
      }
    } onCancel: {
      Task { await self.leave(url, as: waiter) }
    }
  }

  private func join(
    _ url: URL, as waiter: UUID, _ continuation: CheckedContinuation<Image, any Error>
  ) {
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
    positions[waiter] = (downloads[url]!.id, downloads[url]!.waiters.count)
    downloads[url]!.waiters.append(continuation)
  }

  private func leave(_ url: URL, as waiter: UUID) {
    guard let (download, position) = positions.removeValue(forKey: waiter),
      downloads[url]?.id == download,
      let count = downloads[url]?.waiters.count, position < count,
      let continuation = downloads[url]?.waiters.remove(at: position)
    else { return }
    continuation.resume(throwing: CancellationError())
    // The last caller out cancels the work nobody is waiting for any more.
    if downloads[url]?.waiters.isEmpty == true {
      downloads.removeValue(forKey: url)?.task.cancel()
    }
  }

  private func finish(_ url: URL, download id: UUID, with result: Result<Image, any Error>) {
    guard downloads[url]?.id == id, let download = downloads.removeValue(forKey: url) else {
      return
    }
    for continuation in download.waiters {
      continuation.resume(with: result)
    }
  }
}
