// Expected to fail: Three reports of a refused token, at most one failure and one cancellation, cost one refresh
// The first caller refreshes in its own task, and callers who arrive meanwhile wait on a
// continuation for its result. When that first caller is cancelled, its refresh is cancelled
// with it, and every caller waiting for it fails too, though none of them was cancelled.
import Foundation
import Services

public actor TokenStore {
  private var credentials: Credentials
  private let server: any AuthServer
  private var isRefreshing = false
  private var waiting: [CheckedContinuation<Credentials, any Error>] = []

  public init(credentials: Credentials, server: any AuthServer) {
    self.credentials = credentials
    self.server = server
  }

  public func validAccessToken() async throws -> String {
    if credentials.isValid(at: Date()) {
      return credentials.accessToken
    }
    return try await refreshed().accessToken
  }

  public func accessToken(replacing rejected: String) async throws -> String {
    guard rejected == credentials.accessToken else {
      return credentials.accessToken
    }
    return try await refreshed().accessToken
  }

  private func refreshed() async throws -> Credentials {
    if isRefreshing {
      return try await withCheckedThrowingContinuation { waiting.append($0) }
    }
    isRefreshing = true
    let result: Result<Credentials, any Error>
    do {
      result = .success(try await server.refresh(using: credentials.refreshToken))
    } catch {
      result = .failure(error)
    }
    if case .success(let renewed) = result {
      credentials = renewed
    }
    isRefreshing = false
    let waiters = waiting
    waiting = []
    for waiter in waiters {
      waiter.resume(with: result)
    }
    return try result.get()
  }
}
