import Foundation
import Services

/// Hands out a valid access token to every request the app makes, refreshing it when it expires.
public actor TokenStore {
  private var credentials: Credentials
  private let server: any AuthServer

  public init(credentials: Credentials, server: any AuthServer) {
    self.credentials = credentials
    self.server = server
  }

  /// An access token that is valid now: the current one, or a fresh one if it has expired.
  public func validAccessToken() async throws -> String {
    if credentials.isValid(at: Date()) {
      return credentials.accessToken
    }
    let renewed = try await server.refresh(using: credentials.refreshToken)
    credentials = renewed
    return renewed.accessToken
  }
}
