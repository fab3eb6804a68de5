// Another right design: each caller's continuation is kept behind a lock instead of on the actor,
// so the cancellation handler answers a cancelled caller at once, on whatever thread cancels it,
// without a hop back onto the actor. The price is two small classes whose every method must be
// right on any thread, in any order: the actor no longer checks that for us.
import Foundation
import Services

public actor AvatarLoader {
  private var downloads: [URL: SharedDownload] = [:]
  private let client: any ImageClient

  public init(client: any ImageClient) {
    self.client = client
  }

  /// The avatar at `url`, from the download already running for it if there is one.
  public func avatar(at url: URL) async throws -> Image {
    let waiter = Waiter()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        join(url, as: waiter, continuation)
      }
    } onCancel: {
      waiter.cancel()
    }
  }

  private func join(
    _ url: URL, as waiter: Waiter, _ continuation: CheckedContinuation<Image, any Error>
  ) {
    // A download whose last caller has left is on its way out; a new caller starts a fresh one.
    let download: SharedDownload
    if let running = downloads[url], running.add(waiter) {
      download = running
    } else {
      download = SharedDownload()
      _ = download.add(waiter)
      downloads[url] = download
      download.start(
        Task {
          let result: Result<Image, any Error>
          do {
            result = .success(try Image(data: try await client.data(from: url)))
          } catch {
            result = .failure(error)
          }
          finish(url, download, with: result)
        })
    }
    // The handler may already have run, before this call began: then the caller leaves at once.
    if !waiter.wait(with: continuation, on: download) {
      download.leave(waiter)
    }
  }

  private func finish(
    _ url: URL, _ download: SharedDownload, with result: Result<Image, any Error>
  ) {
    if downloads[url] === download {
      downloads[url] = nil
    }
    download.finish(with: result)
  }
}

/// One download and the callers still waiting for it.
private final class SharedDownload: @unchecked Sendable {
  private let lock = NSLock()
  private var waiters: [ObjectIdentifier: Waiter] = [:]
  private var task: Task<Void, Never>?
  /// Set once nobody waits any more, or the download has finished: nobody may join it then.
  private var isOver = false

  func start(_ task: Task<Void, Never>) {
    lock.withLock { self.task = task }
  }

  /// Adds a caller, unless the download is over.
  func add(_ waiter: Waiter) -> Bool {
    lock.withLock {
      guard !isOver else { return false }
      waiters[ObjectIdentifier(waiter)] = waiter
      return true
    }
  }

  /// Takes a cancelled caller out; the last one out cancels the download.
  func leave(_ waiter: Waiter) {
    let abandoned: Task<Void, Never>? = lock.withLock {
      waiters[ObjectIdentifier(waiter)] = nil
      guard waiters.isEmpty, !isOver else { return nil }
      isOver = true
      return task
    }
    abandoned?.cancel()
  }

  func finish(with result: Result<Image, any Error>) {
    let waiting = lock.withLock {
      isOver = true
      defer { waiters = [:] }
      return Array(waiters.values)
    }
    for waiter in waiting {
      waiter.finish(with: result)
    }
  }
}

/// One caller: answered exactly once, by the download or by its own cancellation, whichever
/// comes first. Nothing is resumed while the lock is held.
private final class Waiter: @unchecked Sendable {
  private enum State {
    /// The call has not reached its continuation yet.
    case arriving
    /// The call waits for `download`.
    case waiting(CheckedContinuation<Image, any Error>, SharedDownload)
    /// The caller was cancelled before it began to wait.
    case cancelledEarly
    /// The caller has been answered.
    case answered
  }

  private let lock = NSLock()
  private var state = State.arriving

  /// Keeps the continuation, or answers it at once if the caller was already cancelled.
  func wait(with continuation: CheckedContinuation<Image, any Error>, on download: SharedDownload)
    -> Bool
  {
    let cancelled = lock.withLock {
      if case .cancelledEarly = state {
        state = .answered
        return true
      }
      state = .waiting(continuation, download)
      return false
    }
    if cancelled {
      continuation.resume(throwing: CancellationError())
    }
    return !cancelled
  }

  func cancel() {
    let waiting: (CheckedContinuation<Image, any Error>, SharedDownload)? = lock.withLock {
      switch state {
      case .arriving:
        state = .cancelledEarly
        return nil
      case .waiting(let continuation, let download):
        state = .answered
        return (continuation, download)
      case .cancelledEarly, .answered:
        return nil
      }
    }
    if let (continuation, download) = waiting {
      continuation.resume(throwing: CancellationError())
      download.leave(self)
    }
  }

  func finish(with result: Result<Image, any Error>) {
    let continuation: CheckedContinuation<Image, any Error>? = lock.withLock {
      guard case .waiting(let continuation, _) = state else { return nil }
      state = .answered
      return continuation
    }
    continuation?.resume(with: result)
  }
}
