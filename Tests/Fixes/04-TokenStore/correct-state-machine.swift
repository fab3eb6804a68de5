// The store is either holding credentials or refreshing them.
import Foundation
import Services

public actor TokenStore {
  private enum State {
    case holding(Credentials)
    case refreshing(Task<Credentials, any Error>, previous: Credentials)
  }

  private var state: State
  private let server: any AuthServer

  public init(credentials: Credentials, server: any AuthServer) {
    self.state = .holding(credentials)
    self.server = server
  }

  public func validAccessToken() async throws -> String {
    switch state {
    case .holding(let credentials) where credentials.isValid(at: Date()):
      return credentials.accessToken
    case .refreshing(let refresh, _):
      return try await refresh.value.accessToken
    case .holding(let expired):
      let refresh = Task { try await server.refresh(using: expired.refreshToken) }
      state = .refreshing(refresh, previous: expired)
      do {
        let renewed = try await refresh.value
        state = .holding(renewed)
        return renewed.accessToken
      } catch {
        state = .holding(expired)
        throw error
      }
    }
  }
}
