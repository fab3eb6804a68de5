// Expected to fail: A failed refresh fails every caller waiting for it, and the next call refreshes again
// Shares the refresh, but a failed one stays in place and fails every later call.
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
    if let refreshing {
      return try await refreshing.value.accessToken
    }
    let refresh = Task { [refreshToken = credentials.refreshToken] in
      try await server.refresh(using: refreshToken)
    }
    refreshing = refresh
    let renewed = try await refresh.value
    credentials = renewed
    refreshing = nil
    return renewed.accessToken
  }
}
