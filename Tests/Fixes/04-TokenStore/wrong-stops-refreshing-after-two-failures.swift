// Expected to fail: A failed refresh fails every caller waiting for it, and the next call refreshes again
// After two refreshes in a row fail, stops asking the server for 30 seconds and hands every
// caller the last failure: a caller who asks after that failure was heard of gets it without a
// refresh of its own.
import Foundation
import Services

public actor TokenStore {
  private var credentials: Credentials
  private let server: any AuthServer
  private var refreshing: Task<Credentials, any Error>?
  private var failuresInARow = 0
  private var lastFailure: (any Error)?
  private var openUntil = Date.distantPast

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
    if refreshing == nil && rejected != credentials.accessToken {
      return credentials.accessToken
    }
    return try await refreshed().accessToken
  }

  private func refreshed() async throws -> Credentials {
    if let refreshing {
      return try await refreshing.value
    }
    if let lastFailure, Date() < openUntil {
      throw lastFailure
    }
    let refresh = Task { [refreshToken = credentials.refreshToken] in
      try await server.refresh(using: refreshToken)
    }
    refreshing = refresh
    defer { refreshing = nil }
    do {
      let renewed = try await refresh.value
      credentials = renewed
      failuresInARow = 0
      lastFailure = nil
      return renewed
    } catch {
      failuresInARow += 1
      if failuresInARow >= 2 {
        lastFailure = error
        openUntil = Date().addingTimeInterval(30)
      }
      throw error
    }
  }
}
