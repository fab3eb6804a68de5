// Expected to fail: A report of a refused token and a call that finds it expired cost one refresh
// Gives reports a refresh of their own, shared among reports and checked for old news, while
// expiry keeps the starter's shared refresh: a caller who finds the token expired and one who
// reports it while that refresh runs each present refresh-0, and the user is signed out.
import Foundation
import Services

public actor TokenStore {
  private var credentials: Credentials
  private let server: any AuthServer
  /// The refresh for an expired token, shared by every caller who finds it expired.
  private var refreshing: Task<Credentials, any Error>?
  /// The refresh for a token the API turned away, shared by every caller who reports it.
  private var replacing: (token: String, task: Task<Credentials, any Error>)?

  public init(credentials: Credentials, server: any AuthServer) {
    self.credentials = credentials
    self.server = server
  }

  public func validAccessToken() async throws -> String {
    if let replacing { return try await replacing.task.value.accessToken }
    if credentials.isValid(at: Date()) { return credentials.accessToken }
    return try await refreshed().accessToken
  }

  public func accessToken(replacing rejected: String) async throws -> String {
    if let replacing { return try await replacing.task.value.accessToken }
    guard rejected == credentials.accessToken else { return credentials.accessToken }
    let refreshToken = credentials.refreshToken
    let task = Task { () throws -> Credentials in
      defer { self.replacing = nil }
      let renewed = try await server.refresh(using: refreshToken)
      self.credentials = renewed
      return renewed
    }
    replacing = (rejected, task)
    return try await task.value.accessToken
  }

  private func refreshed() async throws -> Credentials {
    if let refreshing { return try await refreshing.value }
    let refresh = Task { [refreshToken = credentials.refreshToken] in
      try await server.refresh(using: refreshToken)
    }
    refreshing = refresh
    defer { refreshing = nil }
    let renewed = try await refresh.value
    credentials = renewed
    return renewed
  }
}
