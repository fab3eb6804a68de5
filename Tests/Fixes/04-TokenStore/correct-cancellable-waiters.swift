// Keeps the waiting callers' continuations by an id of their own, and runs the refresh in a task
// that stores the credentials and resumes them all. A cancelled caller leaves at once with
// CancellationError; the refresh goes on for the others.
import Foundation
import Services

public actor TokenStore {
  private var credentials: Credentials
  private let server: any AuthServer
  private var waiters: [UUID: CheckedContinuation<String, any Error>]?

  public init(credentials: Credentials, server: any AuthServer) {
    self.credentials = credentials
    self.server = server
  }

  public func validAccessToken() async throws -> String {
    if waiters == nil, credentials.isValid(at: Date()) { return credentials.accessToken }
    return try await refreshed()
  }

  public func accessToken(replacing rejected: String) async throws -> String {
    if waiters == nil, rejected != credentials.accessToken { return credentials.accessToken }
    return try await refreshed()
  }

  private func refreshed() async throws -> String {
    let id = UUID()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        guard !Task.isCancelled else {
          continuation.resume(throwing: CancellationError())
          return
        }
        if waiters != nil {
          waiters![id] = continuation
          return
        }
        waiters = [id: continuation]
        let refreshToken = credentials.refreshToken
        Task {
          let result: Result<Credentials, any Error>
          do { result = .success(try await server.refresh(using: refreshToken)) } catch {
            result = .failure(error)
          }
          self.finish(result)
        }
      }
    } onCancel: {
      Task { await self.leave(id) }
    }
  }

  private func leave(_ id: UUID) {
    waiters?.removeValue(forKey: id)?.resume(throwing: CancellationError())
  }

  private func finish(_ result: Result<Credentials, any Error>) {
    if case .success(let renewed) = result { credentials = renewed }
    let waiting = waiters ?? [:]
    waiters = nil
    for waiter in waiting.values { waiter.resume(with: result.map(\.accessToken)) }
  }
}
