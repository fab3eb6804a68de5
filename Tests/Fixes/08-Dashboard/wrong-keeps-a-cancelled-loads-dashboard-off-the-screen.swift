// Expected to fail: A load cancelled once every panel has answered shows the dashboard it returns
// A load that was cancelled does not store what it loaded, but returns it all the same: once every
// panel has answered, a load cancelled before it resumes returns its dashboard, which the screen
// then never shows.
import Services

/// The home screen of a trading app: four panels from four independent requests.
public struct DashboardContent: Equatable, Sendable {
  public let profile: String
  public let portfolio: String
  public let orders: String
  public let news: String
}

public actor Dashboard {
  public private(set) var content: DashboardContent?
  private let service: any DashboardService

  public init(service: any DashboardService) {
    self.service = service
  }

  public func load() async throws -> DashboardContent {
    let service = self.service
    async let profile = service.content(for: .profile)
    async let portfolio = service.content(for: .portfolio)
    async let orders = service.content(for: .orders)
    async let news = service.content(for: .news)
    let loaded = try await DashboardContent(
      profile: profile, portfolio: portfolio, orders: orders, news: news)
    if !Task.isCancelled {
      content = loaded
    }
    return loaded
  }
}
