// Expected to fail: A report made while the refreshing caller is away from the store gets the new token
// Forgets the running refresh, saves the credentials in an `async let` child task, then stores
// them: a report of the old token while the caller waits for its child refreshes again.
import Foundation
import Services

private func save(_ credentials: Credentials) async -> Bool {
  !credentials.accessToken.isEmpty
}

public actor TokenStore {
  private var credentials: Credentials
  private let server: any AuthServer
  private var refreshing: Task<Credentials, any Error>?

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
    if rejected != credentials.accessToken {
      return credentials.accessToken
    }
    return try await refreshed().accessToken
  }

  private func refreshed() async throws -> Credentials {
    if let refreshing {
      return try await refreshing.value
    }
    let refresh = Task { [server, refreshToken = credentials.refreshToken] in
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
    async let saved = save(renewed)
    _ = await saved
    credentials = renewed
    return renewed
  }
}
