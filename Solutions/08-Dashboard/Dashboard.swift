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
    // The panels do not depend on each other, so they load at the same time, as child tasks. None
    // outlives `load()`: on an error or a cancellation, the rest are cancelled and awaited.
    async let profile = service.content(for: .profile)
    async let portfolio = service.content(for: .portfolio)
    async let orders = service.content(for: .orders)
    async let news = service.content(for: .news)
    let loaded = try await DashboardContent(
      profile: profile, portfolio: portfolio, orders: orders, news: news)
    content = loaded
    return loaded
  }
}
