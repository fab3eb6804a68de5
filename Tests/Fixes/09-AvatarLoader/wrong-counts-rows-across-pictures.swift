// Expected to fail: Cancelling the only row of one picture cancels its download, while another picture waits
// Counts the rows still waiting across every picture, so the last cat row to leave cancels
// nothing while a dog row waits, and the cat download runs on for nobody.
import Foundation
import Services

/// Wrong: "last one out" is counted across every URL, so a cat download whose rows all left
/// runs on for nobody while any dog row still waits. Tests only ever ask for cat.png.
public actor AvatarLoader {
  private var downloads: [URL: Int] = [:]
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
    if waiters.values.allSatisfy({ $0.isEmpty }) {
      tasks[download]?.cancel()
      if downloads[url] == download { downloads[url] = nil }
    }
  }
}
