import Foundation
import Services

/// Hands out a valid access token to every request the app makes, refreshing it when it expires.
public actor TokenStore {
  private var credentials: Credentials
  private let server: any AuthServer
  /// The refresh under way, if any. Every caller who finds the token expired waits for this one:
  /// the server honours each refresh token once, so a second refresh would sign the user out.
  private var refreshing: Task<Credentials, any Error>?

  public init(credentials: Credentials, server: any AuthServer) {
    self.credentials = credentials
    self.server = server
  }

  /// An access token that is valid now: the current one, or a fresh one if it has expired.
  public func validAccessToken() async throws -> String {
    if credentials.isValid(at: Date()) {
      return credentials.accessToken
    }
    if let refreshing {
      return try await refreshing.value.accessToken
    }
    let refresh = Task { [refreshToken = credentials.refreshToken] in
      try await server.refresh(using: refreshToken)
    }
    refreshing = refresh
    // Runs after the new credentials are stored, or on failure, so the next caller retries.
    defer { refreshing = nil }
    let renewed = try await refresh.value
    credentials = renewed
    return renewed.accessToken
  }
}
