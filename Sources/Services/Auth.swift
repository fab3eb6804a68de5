import Foundation

/// What an app holds to call an API on a user's behalf: a short-lived access token, and the refresh
/// token that buys the next one.
public struct Credentials: Hashable, Sendable {
  public let accessToken: String
  /// Single use: the server honours it once, then expects the refresh token it issued with it.
  public let refreshToken: String
  public let expiresAt: Date

  public init(accessToken: String, refreshToken: String, expiresAt: Date) {
    self.accessToken = accessToken
    self.refreshToken = refreshToken
    self.expiresAt = expiresAt
  }

  public func isValid(at date: Date) -> Bool {
    date < expiresAt
  }
}

/// The server that issues credentials.
public protocol AuthServer: Sendable {
  /// Trades a refresh token for new credentials. A refresh token that was used before is rejected
  /// with ``AuthError/refreshTokenRejected``, and the user has to sign in again.
  func refresh(using refreshToken: String) async throws -> Credentials
}

public enum AuthError: Error, Equatable, CustomStringConvertible {
  /// The refresh token was used before or never issued: the session is over.
  case refreshTokenRejected(String)

  public var description: String {
    switch self {
    case .refreshTokenRejected(let token):
      "refresh token \(token) was already used; the user is signed out"
    }
  }
}
