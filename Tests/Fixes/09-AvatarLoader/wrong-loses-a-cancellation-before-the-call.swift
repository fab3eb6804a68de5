// Expected to fail: A row cancelled before its call runs returns at once
// Drops a cancellation that comes before the row's continuation is kept (the handler runs at
// once for a task already cancelled), so that row waits forever.
import Foundation
import Services

/// Wrong: like right-lockBoxDirectResume, but a cancel that lands before the box holds its
/// continuation is marked done and dropped; the continuation installed after it is never resumed:
/// a row already cancelled when its call runs hangs forever (and leaks its continuation).
final class Waiter: @unchecked Sendable {
  private let lock = NSLock()
  private var continuation: CheckedContinuation<Image, any Error>?
  private var done = false
  func install(_ c: CheckedContinuation<Image, any Error>) {
    lock.lock()
    continuation = c
    lock.unlock()
  }
  func resume(_ r: Result<Image, any Error>) {
    lock.lock()
    let c = continuation
    continuation = nil
    let first = !done
    done = true
    lock.unlock()
    if first { c?.resume(with: r) }
  }
}

public actor AvatarLoader {
  private var downloads: [URL: Int] = [:]
  private var tasks: [Int: Task<Void, Never>] = [:]
  private var waiters: [Int: [Int: Waiter]] = [:]
  private var nextID = 0
  private let client: any ImageClient

  public init(client: any ImageClient) {
    self.client = client
  }

  public func avatar(at url: URL) async throws -> Image {
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
    let waiter = Waiter()
    waiters[download, default: [:]][me] = waiter
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { waiter.install($0) }
    } onCancel: {
      waiter.resume(.failure(CancellationError()))
      Task { await self.leave(url, download, me) }
    }
  }

  private func finish(_ url: URL, _ download: Int, _ result: Result<Image, any Error>) {
    if downloads[url] == download { downloads[url] = nil }
    tasks[download] = nil
    for waiter in (waiters.removeValue(forKey: download) ?? [:]).values {
      waiter.resume(result)
    }
  }

  private func leave(_ url: URL, _ download: Int, _ me: Int) {
    guard waiters[download]?.removeValue(forKey: me) != nil else { return }
    if waiters[download]?.isEmpty ?? true {
      tasks[download]?.cancel()
      if downloads[url] == download { downloads[url] = nil }
    }
  }
}
