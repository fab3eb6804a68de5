// Expected to fail: A row that asks while a given-up download winds down gets a download of its own
// Forgets a download only when the row that started it is the last to leave: otherwise a row
// that asks while the given-up download winds down joins it, and gets its cancellation.
import Foundation
import Services

/// Wrong: the record is forgotten when the download ends, or when its owner is the last to leave.
/// If the owner leaves first and a joiner leaves last, the cancelled download stays joinable while
/// it winds down, and a new row inherits its CancellationError (needs two cancellations).
public actor AvatarLoader {
  private var downloads: [URL: Int] = [:]
  private var tasks: [Int: Task<Void, Never>] = [:]
  private var waiters: [Int: [Int: CheckedContinuation<Image, any Error>]] = [:]
  private var nextID = 0
  private var owners: [Int: Int] = [:]
  private let client: any ImageClient

  public init(client: any ImageClient) {
    self.client = client
  }

  public func avatar(at url: URL) async throws -> Image {
    try Task.checkCancellation()
    let download: Int
    if let running = downloads[url] {
      download = running
    } else {
      nextID += 1
      download = nextID
      let client = self.client
      downloads[url] = download
      waiters[download] = [:]
      tasks[download] = Task {
        let result: Result<Image, any Error>
        do {
          let data = try await client.data(from: url)
          result = .success(try Image(data: data))
        } catch {
          result = .failure(error)
        }
        await self.finish(url, download, result)
      }
    }
    nextID += 1
    let me = nextID
    if owners[download] == nil { owners[download] = me }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        waiters[download, default: [:]][me] = continuation
        if Task.isCancelled { cancelWaiter(url, download, me) }
      }
    } onCancel: {
      Task { await self.cancelWaiter(url, download, me) }
    }
  }

  private func finish(_ url: URL, _ download: Int, _ result: Result<Image, any Error>) {
    if downloads[url] == download { downloads[url] = nil }
    tasks[download] = nil
    for continuation in (waiters.removeValue(forKey: download) ?? [:]).values {
      continuation.resume(with: result)
    }
  }

  private func cancelWaiter(_ url: URL, _ download: Int, _ me: Int) {
    guard let continuation = waiters[download]?.removeValue(forKey: me) else { return }
    continuation.resume(throwing: CancellationError())
    if waiters[download]?.isEmpty ?? true {
      tasks[download]?.cancel()
      // The row that started a download owns its record: it forgets it if it leaves last.
      if owners[download] == me, downloads[url] == download { downloads[url] = nil }
    }
  }
}
