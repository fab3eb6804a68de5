// `async let`, awaited news first: a failing panel surfaces only when its turn to be awaited
// comes, which is as right as any other order; leaving the scope still ends every panel.
import Services

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
    async let profile = service.content(for: .profile)
    async let portfolio = service.content(for: .portfolio)
    async let orders = service.content(for: .orders)
    async let news = service.content(for: .news)
    let latestNews = try await news
    let latestOrders = try await orders
    let latestPortfolio = try await portfolio
    let loaded = DashboardContent(
      profile: try await profile, portfolio: latestPortfolio, orders: latestOrders,
      news: latestNews)
    content = loaded
    return loaded
  }
}
