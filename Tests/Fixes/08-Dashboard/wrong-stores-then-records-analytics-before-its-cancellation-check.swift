// Expected to fail: A reload, its panels answering in every order, at most one failing, cancelled at any moment, keeps the promise
// Stores the dashboard, records the load with an analytics actor, then checks for cancellation:
// cancelled while on that actor, it throws, and a load that did not succeed is shown.
import Services

public struct DashboardContent: Equatable, Sendable {
  public let profile: String
  public let portfolio: String
  public let orders: String
  public let news: String
}

private actor Analytics {
  private var loads = 0
  func recordLoad() {
    loads += 1
  }
}

public actor Dashboard {
  public private(set) var content: DashboardContent?
  private let service: any DashboardService
  private let analytics = Analytics()

  public init(service: any DashboardService) {
    self.service = service
  }

  public func load() async throws -> DashboardContent {
    async let profile = service.content(for: .profile)
    async let portfolio = service.content(for: .portfolio)
    async let orders = service.content(for: .orders)
    async let news = service.content(for: .news)
    let loaded = DashboardContent(
      profile: try await profile, portfolio: try await portfolio, orders: try await orders,
      news: try await news)
    content = loaded
    await analytics.recordLoad()
    try Task.checkCancellation()
    return loaded
  }
}
