// Expected to fail: A report made while the refreshing caller is away from the store gets the new token
// Forgets the running refresh, saves the credentials through a keychain actor, then stores them:
// a report of the old token while the caller is on that actor refreshes again.
import Foundation
import Services

private actor Keychain {
  private var saved: Credentials?
  func save(_ credentials: Credentials) {
    saved = credentials
  }
}

public actor TokenStore {
  private var credentials: Credentials
  private let server: any AuthServer
  private var refreshing: Task<Credentials, any Error>?
  private let keychain = Keychain()

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
    await keychain.save(renewed)
    credentials = renewed
    return renewed
  }
}
