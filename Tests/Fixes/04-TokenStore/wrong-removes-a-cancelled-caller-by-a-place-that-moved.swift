// Expected to fail: A caller who reports between two cancellations keeps its call
// Keeps the waiting callers in an array, and a cancelled caller leaves by the place it took when
// it began to wait, swapping the last one into the gap. Once one caller has left, another's place
// has moved: A, B and C wait; A leaves and C moves to A's place; D begins to wait in C's old
// place; C's cancellation then ends D's call.
import Foundation
import Services

public actor TokenStore {
  private var credentials: Credentials
  private let server: any AuthServer
  private var refreshing: Task<Void, Never>?
  private var generation = 0
  private var waiters: [CheckedContinuation<Credentials, any Error>] = []

  public init(credentials: Credentials, server: any AuthServer) {
    self.credentials = credentials
    self.server = server
  }

  public func validAccessToken() async throws -> String {
    if refreshing == nil, credentials.isValid(at: Date()) {
      return credentials.accessToken
    }
    return try await refreshed().accessToken
  }

  public func accessToken(replacing rejected: String) async throws -> String {
    if refreshing == nil, rejected != credentials.accessToken {
      return credentials.accessToken
    }
    return try await refreshed().accessToken
  }

  private func leave(_ index: Int, _ of: Int) {
    guard of == generation, index < waiters.count else { return }
    waiters.swapAt(index, waiters.count - 1)
    waiters.removeLast().resume(throwing: CancellationError())
  }

  private func complete(_ result: Result<Credentials, any Error>) {
    if case .success(let renewed) = result { credentials = renewed }
    refreshing = nil
    generation += 1
    let parked = waiters
    waiters = []
    for waiter in parked { waiter.resume(with: result) }
  }

  private func refreshed() async throws -> Credentials {
    if refreshing == nil {
      let refreshToken = credentials.refreshToken
      refreshing = Task {
        let result: Result<Credentials, any Error>
        do {
          result = .success(try await self.server.refresh(using: refreshToken))
        } catch {
          result = .failure(error)
        }
        self.complete(result)
      }
    }
    let id = waiters.count
    let of = generation
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        if Task.isCancelled {
          continuation.resume(throwing: CancellationError())
        } else {
          waiters.append(continuation)
        }
      }
    } onCancel: {
      Task { await self.leave(id, of) }
    }
  }
}
