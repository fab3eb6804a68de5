import Services

/// The home screen of a trading app: four panels from four independent requests.
public struct DashboardContent: Equatable, Sendable {
  public let profile: String
  public let portfolio: String
  public let orders: String
  public let news: String
}

/// Loads the home screen and keeps the last one loaded.
public actor Dashboard {
  public private(set) var content: DashboardContent?
  private let service: any DashboardService

  public init(service: any DashboardService) {
    self.service = service
  }

  /// Loads every panel and shows them together.
  public func load() async throws -> DashboardContent {
    let profile = try await service.content(for: .profile)
    let portfolio = try await service.content(for: .portfolio)
    let orders = try await service.content(for: .orders)
    let news = try await service.content(for: .news)
    let loaded = DashboardContent(
      profile: profile, portfolio: portfolio, orders: orders, news: news)
    content = loaded
    return loaded
  }
}
