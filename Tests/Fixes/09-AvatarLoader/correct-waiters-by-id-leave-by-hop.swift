// Each row waits on a continuation kept by id; its cancellation handler hops to the actor to
// take out its own waiter only, and the last one out calls the download off.
import Foundation
import Services

/// Loads the avatars in a scrolling list. Many rows show the same person, so rows that ask for
/// the same avatar at once share one download; a row that scrolls away cancels its call.
public actor AvatarLoader {
  /// One running download and the rows waiting for it, each by an id of its own.
  private struct Download {
    let id: UUID
    let task: Task<Void, Never>
    var waiters: [UUID: CheckedContinuation<Image, any Error>]
  }
  private var downloads: [URL: Download] = [:]
  private let client: any ImageClient

  public init(client: any ImageClient) {
    self.client = client
  }

  public func avatar(at url: URL) async throws -> Image {
    let waiter = UUID()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        if Task.isCancelled {
          continuation.resume(throwing: CancellationError())
          return
        }
        if downloads[url] == nil {
          start(url)
        }
        downloads[url]?.waiters[waiter] = continuation
      }
    } onCancel: {
      Task { await self.leave(url, waiter: waiter) }
    }
  }

  private func start(_ url: URL) {
    let id = UUID()
    let client = self.client
    let task = Task {
      let result: Result<Image, any Error>
      do {
        result = .success(try Image(data: try await client.data(from: url)))
      } catch {
        result = .failure(error)
      }
      await self.finish(url, id: id, with: result)
    }
    downloads[url] = Download(id: id, task: task, waiters: [:])
  }

  private func finish(_ url: URL, id: UUID, with result: Result<Image, any Error>) {
    guard let download = downloads[url], download.id == id else { return }
    downloads[url] = nil
    for continuation in download.waiters.values {
      continuation.resume(with: result)
    }
  }

  private func leave(_ url: URL, waiter: UUID) {
    guard let continuation = downloads[url]?.waiters.removeValue(forKey: waiter) else { return }
    continuation.resume(throwing: CancellationError())
    if let download = downloads[url], download.waiters.isEmpty {
      download.task.cancel()
      downloads[url] = nil
    }
  }
}
