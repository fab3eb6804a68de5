// Expected to fail: A report of a refused token and a call that finds it expired cost one refresh
// Numbers the tokens it replaces and takes a report of an older one for old news, but counts only
// the refreshes made for reports: once a refresh for an expired token has brought access-1, a late
// report of access-0 refreshes again and revokes access-1.
import Foundation
import Services

public actor TokenStore {
  private var credentials: Credentials
  private let server: any AuthServer
  private var refreshing: Task<Credentials, any Error>?
  /// How many times a reported token has been replaced, and at which count each token was held.
  private var replacements = 0
  private var heldAt: [String: Int]

  public init(credentials: Credentials, server: any AuthServer) {
    self.credentials = credentials
    self.server = server
    heldAt = [credentials.accessToken: 0]
  }

  public func validAccessToken() async throws -> String {
    if credentials.isValid(at: Date()) { return credentials.accessToken }
    return try await refreshed(countsAsReplacement: false).accessToken
  }

  public func accessToken(replacing rejected: String) async throws -> String {
    if refreshing == nil, let held = heldAt[rejected], held < replacements {
      return credentials.accessToken
    }
    return try await refreshed(countsAsReplacement: true).accessToken
  }

  private func refreshed(countsAsReplacement: Bool) async throws -> Credentials {
    if let refreshing { return try await refreshing.value }
    let refreshToken = credentials.refreshToken
    let task = Task { () throws -> Credentials in
      defer { self.refreshing = nil }
      let renewed = try await server.refresh(using: refreshToken)
      self.credentials = renewed
      if countsAsReplacement {
        self.replacements += 1
        self.heldAt[renewed.accessToken] = self.replacements
      }
      return renewed
    }
    refreshing = task
    return try await task.value
  }
}
