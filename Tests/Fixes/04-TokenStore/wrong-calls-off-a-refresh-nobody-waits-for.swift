// Expected to fail: A refresh its caller gave up on keeps what the server issued
// Counts the callers waiting for the refresh, and calls the refresh off when the last of them gives
// up, so that nobody pays for a token no one will use. The server may have handled it already: it
// spent the refresh token, and the credentials it issued are lost, so the next refresh presents a
// spent token and the user is signed out.
import Foundation
import Services

/// Hands out the access token that the app's requests carry, and refreshes it, once for every
/// caller who needs a new one, when it expires or when the API turns it away.
public actor TokenStore {
  private var credentials: Credentials
  private let server: any AuthServer
  /// The refresh under way, if any, and how many callers wait for it.
  private var refreshing: Task<Credentials, any Error>?
  private var waiting = 0

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
    guard rejected == credentials.accessToken else {
      return credentials.accessToken
    }
    return try await refreshed().accessToken
  }

  private func refreshed() async throws -> Credentials {
    let refresh: Task<Credentials, any Error>
    if let refreshing {
      refresh = refreshing
    } else {
      refresh = Task { [refreshToken = credentials.refreshToken] in
        let renewed = try await server.refresh(using: refreshToken)
        stored(renewed)
        return renewed
      }
      refreshing = refresh
    }
    waiting += 1
    return try await withTaskCancellationHandler {
      try await refresh.value
    } onCancel: {
      Task { await self.gaveUp(on: refresh) }
    }
  }

  private func stored(_ renewed: Credentials) {
    credentials = renewed
    refreshing = nil
    waiting = 0
  }

  private func gaveUp(on refresh: Task<Credentials, any Error>) {
    guard refreshing == refresh else { return }
    waiting -= 1
    if waiting == 0 {
      refresh.cancel()
      refreshing = nil
    }
  }
}
