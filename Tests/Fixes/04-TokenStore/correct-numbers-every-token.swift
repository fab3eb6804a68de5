// Numbers every token it has held, whichever call's refresh brought it; a report of a token older
// than the one held is old news, answered with the token held, or with the running refresh's.
import Foundation
import Services

public actor TokenStore {
  private var credentials: Credentials
  private let server: any AuthServer
  private var generation = 0
  private var generationOf: [String: Int]
  private var refreshing: Task<Credentials, any Error>?

  public init(credentials: Credentials, server: any AuthServer) {
    self.credentials = credentials
    self.server = server
    self.generationOf = [credentials.accessToken: 0]
  }

  public func validAccessToken() async throws -> String {
    if credentials.isValid(at: Date()) {
      return credentials.accessToken
    }
    return try await refreshed().accessToken
  }

  public func accessToken(replacing rejected: String) async throws -> String {
    if let seen = generationOf[rejected], seen < generation {
      if let refreshing { return try await refreshing.value.accessToken }
      return credentials.accessToken
    }
    return try await refreshed().accessToken
  }

  private func refreshed() async throws -> Credentials {
    if let refreshing {
      return try await refreshing.value
    }
    let refresh = Task { [refreshToken = credentials.refreshToken] in
      try await server.refresh(using: refreshToken)
    }
    refreshing = refresh
    defer { refreshing = nil }
    let renewed = try await refresh.value
    credentials = renewed
    generation += 1
    generationOf[renewed.accessToken] = generation
    return renewed
  }
}
