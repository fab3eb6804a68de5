// Expected to fail: A caller who hears late of a failed refresh it shared leaves the next refresh alone
// Every caller who waited for a failed refresh forgets the refresh under way when it hears of
// the failure: one who hears late forgets a newer refresh, and the next report starts another.
import Foundation
import Services

/// Hands out the access token that the app's requests carry, and refreshes it, once for every
/// caller who needs a new one, when it expires or when the API turns it away.
public actor TokenStore {
  private var credentials: Credentials
  private let server: any AuthServer
  /// The refresh under way, if any. Every caller who needs a new token waits for this one: the
  /// server honours each refresh token once, so a second refresh would sign the user out.
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
    return try await refreshed().accessToken
  }

  /// A token to retry with, after the API turned `rejected` away before it expired, because the
  /// server revoked it.
  public func accessToken(replacing rejected: String) async throws -> String {
    // The caller read `rejected` before its request went out, and the API's answer took a while.
    // If another caller has replaced that token meanwhile, the current one is the answer: another
    // refresh would only revoke the token just handed out.
    guard rejected == credentials.accessToken else {
      return credentials.accessToken
    }
    return try await refreshed().accessToken
  }

  private func refreshed() async throws -> Credentials {
    if let refreshing {
      do {
        return try await refreshing.value
      } catch {
        // The refresh failed: forget it, so that the next caller tries again.
        self.refreshing = nil
        throw error
      }
    }
    let refresh = Task { [refreshToken = credentials.refreshToken] in
      try await server.refresh(using: refreshToken)
    }
    refreshing = refresh
    // Runs after the new credentials are stored, or on failure, so the next caller retries.
    defer { refreshing = nil }
    let renewed = try await refresh.value
    credentials = renewed
    return renewed
  }
}
