// Tries a refresh that failed with a network error once more, with the same refresh token, before
// its callers hear of the failure. Right in this chapter's world, where a refresh that fails has
// not spent its token; against a server that can spend the token and then lose its answer, the
// second try would be turned away and sign the user out.
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
    if refreshing == nil && rejected != credentials.accessToken {
      return credentials.accessToken
    }
    return try await refreshed().accessToken
  }

  private func refreshed() async throws -> Credentials {
    if let refreshing {
      return try await refreshing.value
    }
    let refresh = Task { [refreshToken = credentials.refreshToken, server] in
      do {
        return try await server.refresh(using: refreshToken)
      } catch let error as AuthError {
        throw error
      } catch is CancellationError {
        throw CancellationError()
      } catch {
        return try await server.refresh(using: refreshToken)
      }
    }
    refreshing = refresh
    defer { refreshing = nil }
    let renewed = try await refresh.value
    credentials = renewed
    return renewed
  }
}
