// Expected to fail: A row cancelled while it is away from the loader returns once it is back
// Logs that a download started, off the actor, before the first row registers to hear of it: a
// row cancelled during the log is in nobody's list yet, so its cancellation finds nothing to end.
import Foundation
import Services

@concurrent func report(_ message: String) async {
  _ = message.count
}

public actor AvatarLoader {
  private struct Entry {
    let generation: Int
    let task: Task<Void, Never>
    var waiters: [Int: CheckedContinuation<Image, any Error>]
  }
  private var entries: [URL: Entry] = [:]
  private var nextID = 0
  private let client: any ImageClient

  public init(client: any ImageClient) {
    self.client = client
  }

  public func avatar(at url: URL) async throws -> Image {
    try Task.checkCancellation()
    let id = nextID
    nextID += 1
    return try await withTaskCancellationHandler {
      if entries[url] == nil {
        let client = self.client
        let task = Task {
          let result: Result<Image, any Error>
          do {
            result = .success(try Image(data: try await client.data(from: url)))
          } catch {
            result = .failure(error)
          }
          self.finish(url, generation: id, with: result)
        }
        entries[url] = Entry(generation: id, task: task, waiters: [:])
        await report("download of \(url.lastPathComponent) started")
      }
      return try await withCheckedThrowingContinuation { continuation in
        if entries[url] != nil {
          entries[url]!.waiters[id] = continuation
        } else {
          // The download finished while this row was away.
          continuation.resume(throwing: CancellationError())
        }
      }
    } onCancel: {
      Task { await self.leave(url, id: id) }
    }
  }

  private func finish(_ url: URL, generation: Int, with result: Result<Image, any Error>) {
    guard let entry = entries[url], entry.generation == generation else { return }
    entries[url] = nil
    for waiter in entry.waiters.values { waiter.resume(with: result) }
  }

  private func leave(_ url: URL, id: Int) {
    guard let waiter = entries[url]?.waiters.removeValue(forKey: id) else { return }
    waiter.resume(throwing: CancellationError())
    if let entry = entries[url], entry.waiters.isEmpty {
      entry.task.cancel()
      entries[url] = nil
    }
  }
}
