// Expected to fail: A caller who shared a refresh and resumes late does not undo a later one
// Every caller, the ones who joined the refresh too, stores the credentials it got and forgets the
// refresh as it leaves. A caller who resumes late writes back credentials that a later refresh has
// already replaced, and forgets that later refresh.
import Foundation
import Services

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
      if let refreshing { return try await refreshing.value.accessToken }
      return credentials.accessToken
    }
    return try await refreshed().accessToken
  }

  private func refreshed() async throws -> Credentials {
    let refresh =
      refreshing
      ?? Task { [refreshToken = credentials.refreshToken] in
        try await server.refresh(using: refreshToken)
      }
    refreshing = refresh
    defer { refreshing = nil }
    let renewed = try await refresh.value
    credentials = renewed
    return renewed
  }
}
