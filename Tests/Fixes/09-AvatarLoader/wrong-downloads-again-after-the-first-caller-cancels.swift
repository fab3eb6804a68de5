// Expected to fail: Cancelling the caller who started a download does not fail the others
// Lets the first caller's cancellation cancel the shared download, as before, and has the others
// start a new one when theirs ends as a cancellation they did not ask for: nobody else sees an
// error, but a download that rows still wanted is thrown away and fetched again.
import Foundation
import Services

/// Where a waiting caller gets its answer, from the download or from its own cancellation.
final class Box: @unchecked Sendable {
  private let lock = NSLock()
  private var continuation: CheckedContinuation<Image, any Error>?
  private var result: Result<Image, any Error>?
  func install(_ c: CheckedContinuation<Image, any Error>) {
    lock.lock()
    if let result {
      lock.unlock()
      c.resume(with: result)
      return
    }
    continuation = c
    lock.unlock()
  }
  func resume(_ r: Result<Image, any Error>) {
    lock.lock()
    if result != nil {
      lock.unlock()
      return
    }
    result = r
    let c = continuation
    continuation = nil
    lock.unlock()
    c?.resume(with: r)
  }
}

public actor AvatarLoader {
  private var downloads: [URL: Task<Image, any Error>] = [:]
  private let client: any ImageClient

  public init(client: any ImageClient) {
    self.client = client
  }

  public func avatar(at url: URL) async throws -> Image {
    while true {
      try Task.checkCancellation()
      if let running = downloads[url] {
        do {
          return try await Self.wait(for: running)
        } catch  where Self.downloadWasCancelled(error) && !Task.isCancelled {
          if downloads[url] == running { downloads[url] = nil }
          continue
        }
      }
      let client = self.client
      let download = Task {
        let data = try await client.data(from: url)
        return try Image(data: data)
      }
      downloads[url] = download
      defer { if downloads[url] == download { downloads[url] = nil } }
      return try await withTaskCancellationHandler {
        try await download.value
      } onCancel: {
        download.cancel()
      }
    }
  }

  static func downloadWasCancelled(_ error: any Error) -> Bool {
    error is CancellationError || (error as? URLError)?.code == .cancelled
  }

  private static func wait(for task: Task<Image, any Error>) async throws -> Image {
    let box = Box()
    Task { box.resume(await task.result) }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { box.install($0) }
    } onCancel: {
      box.resume(.failure(CancellationError()))
    }
  }
}
