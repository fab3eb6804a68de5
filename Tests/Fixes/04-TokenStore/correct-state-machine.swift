// The store is either holding credentials or refreshing them; a rejection of a token it no longer
// holds is answered with the one it holds.
import Foundation
import Services

public actor TokenStore {
  private enum State {
    /// The credentials to hand out, valid or not.
    case holding(Credentials)
    /// A refresh is running; everyone who needs new credentials waits for it.
    case refreshing(Task<Credentials, any Error>)
  }

  private var state: State
  private let server: any AuthServer

  public init(credentials: Credentials, server: any AuthServer) {
    self.state = .holding(credentials)
    self.server = server
  }

  public func validAccessToken() async throws -> String {
    if case .holding(let credentials) = state, credentials.isValid(at: Date()) {
      return credentials.accessToken
    }
    return try await renewed().accessToken
  }

  public func accessToken(replacing rejected: String) async throws -> String {
    if case .holding(let credentials) = state, credentials.accessToken != rejected {
      return credentials.accessToken
    }
    return try await renewed().accessToken
  }

  private func renewed() async throws -> Credentials {
    switch state {
    case .refreshing(let refresh):
      return try await refresh.value
    case .holding(let old):
      let refresh = Task { try await server.refresh(using: old.refreshToken) }
      state = .refreshing(refresh)
      do {
        let renewed = try await refresh.value
        state = .holding(renewed)
        return renewed
      } catch {
        state = .holding(old)
        throw error
      }
    }
  }
}
