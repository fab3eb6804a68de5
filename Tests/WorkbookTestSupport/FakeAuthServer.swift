import Foundation
import ScheduleExplorer
import Services

/// An ``AuthServer`` with single-use refresh tokens, whose refreshes wait until the test lets them
/// finish.
///
/// It starts out having issued `access-0` and `refresh-0` (``expiredCredentials`` or
/// ``validCredentials``). Refresh number *n* that presents the current refresh token returns
/// `access-n` and `refresh-n`, valid for good, and revokes the access token issued before, which
/// the API then turns away; any other refresh token is rejected with
/// ``AuthError/refreshTokenRejected``, as a real server does when one token is used twice.
///
/// What ``AuthServer`` documents, and how this fake does it:
/// - "The server that issues credentials": the outcome `renew`, which answers refresh *n* with
///   `access-n` and `refresh-n`.
/// - "Trades a refresh token for new credentials": `renew` with the current refresh token, which
///   revokes the access token issued before.
/// - "A refresh token that was used before is rejected": `renew` with any other token, which the
///   server checks when it handles the refresh, after it crossed the network.
/// - Besides: the outcome `error`, a ``FakeNetworkError`` that leaves the refresh token unused; a
///   cancelled refresh throws `CancellationError` at once, or winds down (the outcome
///   `cancelled`), or winds down after the server handled it, its answer lost on the way back
///   (the outcome `handled-anyway`: the server has issued new credentials and spent the refresh
///   token). Not produced: a network error after the server used the token, and credentials that
///   expire in turn (the behaviours table in Docs/Instructors.md says why).
public final class FakeAuthServer: AuthServer, FakeService {
  /// Credentials whose access token has expired, holding the refresh token the server honours.
  public static let expiredCredentials = Credentials(
    accessToken: "access-0", refreshToken: "refresh-0", expiresAt: .distantPast)

  /// Credentials that are still valid; the server has issued nothing newer.
  public static let validCredentials = Credentials(
    accessToken: "access-0", refreshToken: "refresh-0", expiresAt: .distantFuture)

  private struct State {
    var currentRefreshToken = "refresh-0"
    var currentAccessToken = "access-0"
    var rejected = 0
  }

  public let requests: Requests
  private let state = Locked(State())

  /// How a refresh whose task was cancelled ends when the server had already handled it: the
  /// server issued new credentials and spent the refresh token, and the answer is lost. Released
  /// so, a refresh whose task was not cancelled renews as usual.
  public static let handledAnyway = "handled-anyway"

  public init(_ scenario: Scenario) {
    requests = Requests(
      noun: "refresh", preposition: "with", outcomes: ["renew", "error"], scenario: scenario)
    requests.mayEndCancelled(
      as: Self.handledAnyway, throwing: { CancellationError() }, afterItWasHandledAs: "renew")
  }

  /// Whether refreshes fail as a network error would, without using up the refresh token, when
  /// the test lets them finish without choosing.
  public var failsRefreshes: Bool {
    get { requests.defaultOutcome == "error" }
    set { requests.defaultOutcome = newValue ? "error" : "renew" }
  }

  /// How many refreshes reached the server.
  public var refreshes: Int { requests.started }

  /// How many refreshes the server rejected because their refresh token was used before.
  public var rejectedRefreshes: Int { state.value.rejected }

  /// The access token the API accepts now; every one issued before it is revoked.
  public var currentAccessToken: String { state.value.currentAccessToken }

  public func refresh(using refreshToken: String) async throws -> Credentials {
    try await requests.perform(for: refreshToken) { number, outcome in
      if outcome == "error" { throw FakeNetworkError(request: number) }
      // The server checks the token when it handles the request, after it crossed the network.
      let revoked: String? = self.state.withLock { state in
        guard refreshToken == state.currentRefreshToken else {
          state.rejected += 1
          return nil
        }
        defer {
          state.currentRefreshToken = "refresh-\(number)"
          state.currentAccessToken = "access-\(number)"
        }
        return state.currentAccessToken
      }
      guard let revoked else { throw AuthError.refreshTokenRejected(refreshToken) }
      let credentials = Credentials(
        accessToken: "access-\(number)", refreshToken: "refresh-\(number)",
        expiresAt: .distantFuture)
      return (credentials, "returns access-\(number) and revokes \(revoked)")
    }
  }
}
