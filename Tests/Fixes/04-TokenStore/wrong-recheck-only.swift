// Expected to fail: Callers who find the token expired share one refresh and all stay signed in
// Looks again after the refresh, but every caller has already spent the refresh token.
import Foundation
import Services

public actor TokenStore {
  private var credentials: Credentials
  private let server: any AuthServer

  public init(credentials: Credentials, server: any AuthServer) {
    self.credentials = credentials
    self.server = server
  }

  public func validAccessToken() async throws -> String {
    if credentials.isValid(at: Date()) {
      return credentials.accessToken
    }
    let renewed = try await server.refresh(using: credentials.refreshToken)
    if credentials.isValid(at: Date()) {
      return credentials.accessToken
    }
    credentials = renewed
    return renewed.accessToken
  }
}
