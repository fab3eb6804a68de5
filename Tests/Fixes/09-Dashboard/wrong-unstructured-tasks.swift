// Expected to fail: A failing panel fails the load, and no other panel keeps loading
// Starts each panel in a `Task {}`: concurrent, but nothing cancels the others.
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
    let profile = Task { try await service.content(for: .profile) }
    let portfolio = Task { try await service.content(for: .portfolio) }
    let orders = Task { try await service.content(for: .orders) }
    let news = Task { try await service.content(for: .news) }
    let loaded = DashboardContent(
      profile: try await profile.value, portfolio: try await portfolio.value,
      orders: try await orders.value, news: try await news.value)
    content = loaded
    return loaded
  }
}
