// Expected to fail: After a failed refresh, a token replaced before it still gets the current one
// Remembers every token it replaced, and forgets them all when a refresh fails, to start over. The
// token held is still the one the last good refresh brought, so a late report of an older token is
// old news as before, and refreshing for it revokes the token everyone has.
import Foundation
import Services

public actor TokenStore {
  private var credentials: Credentials
  private let server: any AuthServer
  private var refreshing: Task<Credentials, any Error>?
  private var replaced: Set<String> = []

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
    if replaced.contains(rejected) {
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
    defer { refreshing = nil }
    let renewed: Credentials
    do {
      renewed = try await refresh.value
    } catch {
      // Start over after a failure, so the next report refreshes again.
      replaced.removeAll()
      throw error
    }
    replaced.insert(credentials.accessToken)
    credentials = renewed
    return renewed
  }
}
