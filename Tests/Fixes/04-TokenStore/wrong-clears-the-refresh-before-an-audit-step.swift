// Expected to fail: A report made while the refreshing caller is away from the store gets the new token
// Clears the running refresh once it answers, then formats an audit line in a `@concurrent`
// function before it stores the new credentials: a report made meanwhile refreshes again.
import Foundation
import Services

public actor TokenStore {
  private var credentials: Credentials
  private let server: any AuthServer
  private var refreshing: Task<Credentials, any Error>?
  private var auditLog: [String] = []

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
    if let refreshing {
      return try await refreshing.value
    }
    let refresh = Task { [refreshToken = credentials.refreshToken] in
      try await server.refresh(using: refreshToken)
    }
    refreshing = refresh
    let renewed: Credentials
    do {
      renewed = try await refresh.value
    } catch {
      refreshing = nil
      throw error
    }
    refreshing = nil
    auditLog.append(await Self.auditLine(old: credentials, new: renewed))
    credentials = renewed
    return renewed
  }

  @concurrent private nonisolated static func auditLine(old: Credentials, new: Credentials) async
    -> String
  {
    String(
      format: "%@ -> %@ (expires %.0f)", old.accessToken, new.accessToken,
      new.expiresAt.timeIntervalSince1970)
  }
}
