// Takes the last row off the download it leaves, cancels that download and forgets it, and waits
// for it to wind down before it throws: the promise lets a cancelled row wait for a download that
// nobody wants any more.
import Foundation
import Services
import Synchronization

final class Waiter: Sendable {
  private enum State {
    case waiting(CheckedContinuation<Result<Image, any Error>, Never>?)
    case done(Result<Image, any Error>?)  // result delivered before anyone was waiting
  }
  private let state = Mutex<State>(.waiting(nil))

  func install(_ continuation: CheckedContinuation<Result<Image, any Error>, Never>) {
    let ready: Result<Image, any Error>? = state.withLock { state in
      switch state {
      case .waiting:
        state = .waiting(continuation)
        return nil
      case .done(let result):
        state = .done(nil)
        return result
      }
    }
    if let ready { continuation.resume(returning: ready) }
  }

  /// Delivers `result` once; later calls do nothing.
  func deliver(_ result: Result<Image, any Error>) {
    let continuation: CheckedContinuation<Result<Image, any Error>, Never>?? = state.withLock {
      state in
      switch state {
      case .waiting(let continuation):
        if let continuation {
          state = .done(nil)
          return .some(continuation)
        }
        state = .done(result)
        return .some(nil)
      case .done:
        return nil
      }
    }
    if case .some(.some(let c)) = continuation { c.resume(returning: result) }
  }
}

public actor AvatarLoader {
  private struct Entry {
    let generation: Int
    let task: Task<Void, Never>
    var waiters: [ObjectIdentifier: Waiter]
  }
  private var entries: [URL: Entry] = [:]
  private var nextGeneration = 0
  private let client: any ImageClient

  public init(client: any ImageClient) {
    self.client = client
  }

  public func avatar(at url: URL) async throws -> Image {
    try Task.checkCancellation()
    let waiter = Waiter()
    let key = ObjectIdentifier(waiter)
    let generation: Int
    if let entry = entries[url] {
      generation = entry.generation
      entries[url]!.waiters[key] = waiter
    } else {
      generation = nextGeneration
      nextGeneration += 1
      let client = self.client
      let task = Task.detached {
        let result: Result<Image, any Error>
        do {
          result = .success(try Image(data: try await client.data(from: url)))
        } catch {
          result = .failure(error)
        }
        await self.finish(url, generation: generation, with: result)
      }
      entries[url] = Entry(generation: generation, task: task, waiters: [key: waiter])
    }
    let result = await withTaskCancellationHandler {
      await withCheckedContinuation { waiter.install($0) }
    } onCancel: {
      waiter.deliver(.failure(CancellationError()))
    }
    // Back on the actor: take this row off its download's list.
    if var entry = entries[url], entry.generation == generation,
      entry.waiters.removeValue(forKey: key) != nil
    {
      if entry.waiters.isEmpty {
        entry.task.cancel()
        entries[url] = nil
        await entry.task.value
      } else {
        entries[url] = entry
      }
    }
    return try result.get()
  }

  private func finish(_ url: URL, generation: Int, with result: Result<Image, any Error>) {
    guard let entry = entries[url], entry.generation == generation else { return }
    entries[url] = nil
    for waiter in entry.waiters.values { waiter.deliver(result) }
  }
}
