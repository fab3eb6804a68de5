// Expected to fail: Two avatars whose addresses differ only in their path or their query are two downloads
// Shares downloads by the address's file name, so two people whose avatars are both avatar.png
// share one download, and one row shows the other person.
import Foundation
import Services

/// Wrong: shares by the file name, so two avatars at different hosts/paths named alike share one
/// download and rows get the other person's image. Tests only ever ask for one URL.
public actor AvatarLoader {
  private var downloads: [String: Int] = [:]
  private var tasks: [Int: Task<Void, Never>] = [:]
  private var waiters: [Int: [Int: CheckedContinuation<Image, any Error>]] = [:]
  private var nextID = 0
  private let client: any ImageClient

  public init(client: any ImageClient) {
    self.client = client
  }

  public func avatar(at url: URL) async throws -> Image {
    try Task.checkCancellation()
    let download: Int
    if let running = downloads[url.lastPathComponent] {
      download = running
    } else {
      nextID += 1
      download = nextID
      let client = self.client
      downloads[url.lastPathComponent] = download
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
    if downloads[url.lastPathComponent] == download { downloads[url.lastPathComponent] = nil }
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
      if downloads[url.lastPathComponent] == download { downloads[url.lastPathComponent] = nil }
    }
  }
}
