import Services
import Testing
import WorkbookTestSupport

@testable import Chapter04

@Suite("Chapter 04: one refresh for an expired token", .exposesBug)
struct TokenRefreshTests {
  @Test("Callers who find the token expired share one refresh and all stay signed in")
  func callersShareOneRefresh() async throws {
    let scenario = Scenario()
    let server = FakeAuthServer(scenario)
    let store = TokenStore(credentials: FakeAuthServer.expiredCredentials, server: server)

    let callers = scenario.start(3, "validAccessToken()") { try await store.validAccessToken() }
    try await scenario.settle()
    server.open()
    let results = try await callers.results()

    let signedOut = results.filter { $0.error is AuthError }.map(\.caller)
    #expect(
      server.refreshes == 1 && signedOut.isEmpty,
      scenario.explain(
        """
        3 callers found the access token expired and \(server.refreshes) refreshes reached the \
        server with the same single-use refresh token; the server honoured the first and rejected \
        \(server.rejectedRefreshes), which signed out \(signedOut.joined(separator: " and ")). While the first refresh was suspended at `await server.refresh(using:)`, the store \
        still held the expired token, and every caller started a refresh of its own. Callers got: \
        \(describe(results)).
        """,
        correctly:
          "only refresh #1 reaches the server; B and C wait for it and all three get access-1."
      )
    )
  }

  @Test("A caller who asks just as the refresh finishes gets the new token without refreshing")
  func callerArrivingAsTheRefreshFinishesGetsTheNewToken() async throws {
    let scenario = Scenario()
    let server = FakeAuthServer(scenario)
    let store = TokenStore(credentials: FakeAuthServer.expiredCredentials, server: server)

    let results = try await scenario.callInTheGap("validAccessToken()", answering: server) {
      try await store.validAccessToken()
    }

    #expect(
      server.refreshes == 1 && results.allSatisfy { $0.value == "access-1" },
      scenario.explain(
        """
        Caller B asked after refresh #1 had finished but before caller A had stored the new \
        credentials. B saw the expired token, refreshed again with the used refresh token, and \
        \(server.rejectedRefreshes == 0 ? "was not rejected" : "was signed out"). Until the new \
        credentials are stored, the store must remember the refresh under way. Callers got: \
        \(describe(results)).
        """,
        correctly: "B joins refresh #1 and gets access-1."
      )
    )
  }
}

@Suite("Chapter 04: what the token store must keep doing")
struct TokenStoreGuardTests {
  @Test("A valid token costs no refresh")
  func validTokenCostsNoRefresh() async throws {
    let scenario = Scenario()
    let server = FakeAuthServer(scenario)
    let store = TokenStore(credentials: FakeAuthServer.validCredentials, server: server)

    let token = try await scenario.call("validAccessToken()") { try await store.validAccessToken() }

    #expect(token == "access-0")
    #expect(server.refreshes == 0, "a token that is still valid should be used as it is")
  }

  @Test("A failed refresh fails every caller waiting for it, and the next call refreshes again")
  func failedRefreshReachesEveryCallerAndIsRetried() async throws {
    let scenario = Scenario()
    let server = FakeAuthServer(scenario)
    let store = TokenStore(credentials: FakeAuthServer.expiredCredentials, server: server)

    server.failsRefreshes = true
    let callers = scenario.start(3, "validAccessToken()") { try await store.validAccessToken() }
    try await scenario.settle()
    server.open()
    let results = try await callers.results()
    #expect(
      results.allSatisfy { $0.error is FakeNetworkError },
      "every caller waiting for a failed refresh should get its error; \(describe(results))"
    )

    server.failsRefreshes = false
    let refreshesBefore = server.refreshes
    let token = try await scenario.call("validAccessToken()") { try await store.validAccessToken() }
    #expect(
      server.refreshes == refreshesBefore + 1,
      "after a failed refresh, the next call should refresh again instead of reusing the failure"
    )
    #expect(token == "access-\(refreshesBefore + 1)")
  }
}

@Suite("Chapter 04: every interleaving", .exposesBug)
struct TokenStoreExplorationTests {
  @Test("Three callers, in every order and with every answer, share one refresh and stay signed in")
  func everyInterleavingKeepsThePromise() async {
    let call = MethodCall("validAccessToken()", key: "the access token")
    await Exploration(TokenStoreWorld.self, calls: [call, call, call]).run()
  }
}

/// The store in a world of its own, starting with an expired token, with the promise it keeps in
/// every schedule.
struct TokenStoreWorld: ExplorationWorld {
  let server: FakeAuthServer
  let store: TokenStore

  init(_ scenario: Scenario) {
    server = FakeAuthServer(scenario)
    store = TokenStore(credentials: FakeAuthServer.expiredCredentials, server: server)
  }

  var fakes: [any FakeService] { [server] }

  func perform(_ call: MethodCall) async throws -> any Sendable {
    try await store.validAccessToken()
  }

  /// No refresh token is ever presented twice, so nobody is signed out; callers who find the
  /// token expired while a refresh runs share it and get the same token; a renewed token costs no
  /// refresh; a failed refresh reaches only the callers who were waiting for it.
  func checkPromise(_ moment: Moment<Self>) async {
    let rejected = server.requests.records.first { record in
      server.requests.records.contains {
        $0.key == record.key && $0.number < record.number && $0.isAnswered && !$0.threw
      }
    }
    moment.expect(
      rejected == nil, "a refresh token is used once",
      """
      \(rejected.map(server.requests.name(of:)) ?? "A refresh") presented \
      \(rejected?.key ?? "a refresh token") after an earlier refresh had already used it: the \
      server honours each refresh token once, so it rejects the second and signs the user out.
      """)
    moment.expectOneRequestAtATime(
      per: server.requests, keepsSuccess: true, succeeded: { !$0.threw })
    moment.expectAgreement(on: String.self)
    let forTheToken: (Requests.Record) -> String = { _ in "the access token" }
    moment.expectKeepsWhatItReturned(server.requests, subject: forTheToken)
    moment.expectFailuresAreFresh(server.requests, failed: \.threw, subject: forTheToken)
  }
}
