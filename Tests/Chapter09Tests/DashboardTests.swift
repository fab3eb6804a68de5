import Services
import Testing
import WorkbookTestSupport

@testable import Chapter09

extension DashboardContent: CustomTestStringConvertible {
  public var testDescription: String {
    "a dashboard of four panels"
  }
}

@Suite("Chapter 09: independent work runs at the same time", .exposesBug)
struct ConcurrentPanelTests {
  @Test("All four panels load at the same time")
  func panelsLoadAtTheSameTime() async throws {
    let scenario = Scenario()
    let service = FakeDashboardService(scenario)
    let dashboard = Dashboard(service: service)

    let load = scenario.start(1, "load()") { try await dashboard.load() }
    let allAtOnce = await scenario.wait { service.requestsInFlight == 4 }
    let inFlight = service.requestsInFlight
    service.open()
    let results = try await load.results()

    #expect(
      allAtOnce,
      scenario.explain(
        """
        The four panels do not depend on each other, yet only \(inFlight) was loading at a \
        time: each `try await` waited for its panel before the next request was even sent, so \
        the screen takes as long as all four requests added up. Loaded: \(describe(results)).
        """,
        correctly: "loads #1 to #4 all start before any of them finishes."
      )
    )
  }
}

@Suite("Chapter 09: what loading must keep doing")
struct DashboardGuardTests {
  @Test("A dashboard loads all four panels")
  func dashboardLoadsEveryPanel() async throws {
    let scenario = Scenario()
    let service = FakeDashboardService(scenario)
    let dashboard = Dashboard(service: service)
    service.open()

    let content = try await scenario.call("load()") { try await dashboard.load() }

    #expect(content.profile == FakeDashboardService.content(for: .profile))
    #expect(content.portfolio == FakeDashboardService.content(for: .portfolio))
    #expect(content.orders == FakeDashboardService.content(for: .orders))
    #expect(content.news == FakeDashboardService.content(for: .news))
  }

  @Test("A failing panel fails the load, and no other panel keeps loading")
  func failureIsThrownAndTheRestAreCancelled() async throws {
    let scenario = Scenario()
    let service = FakeDashboardService(scenario)
    let dashboard = Dashboard(service: service)

    service.fail(.profile)
    let load = scenario.start(1, "load()") { try await dashboard.load() }
    try await scenario.settle()
    let profile = try #require(
      service.request(for: .profile), "the profile panel should start loading")
    service.release(profile)
    let finished = await scenario.wait { load.allFinished }
    let stillLoading = service.requestsInFlight
    service.open()
    let result = try await load.results()[0]

    #expect(
      finished && result.error is FakeNetworkError,
      scenario.explain(
        "the profile panel failed, so load() should throw its error at once; \(result)",
        correctly: "load() throws the profile panel's error without waiting for the others."
      )
    )
    #expect(
      stillLoading == 0,
      scenario.explain(
        """
        load() had failed, yet \(stillLoading) panel requests were still running for a screen \
        that will never show them. Work started with `Task {}` is not cancelled with its caller.
        """,
        correctly: "the other panels' loads are cancelled before load() throws."
      )
    )
  }

  @Test("Cancelling the load cancels every panel")
  func cancellingTheLoadCancelsEveryPanel() async throws {
    let scenario = Scenario()
    let service = FakeDashboardService(scenario)
    let dashboard = Dashboard(service: service)

    let load = scenario.start(1, "load()") { try await dashboard.load() }
    try await scenario.settle()
    load.cancel()
    let finished = await scenario.wait { load.allFinished }
    let stillLoading = service.requestsInFlight
    service.open()
    let result = try await load.results()[0]

    #expect(
      finished && stillLoading == 0,
      scenario.explain(
        """
        The screen was closed and its load cancelled, yet \(stillLoading) panel requests were \
        still running\(finished ? "" : " and load() had not returned"). Cancelling a task cancels \
        its child tasks, never the tasks it created with `Task {}`. Load got: \(result).
        """,
        correctly: "every panel request is cancelled and load() throws CancellationError."
      )
    )
  }
}
