// Expected to fail: An older load that succeeds after a newer one has failed is what the dashboard shows
// Marks the newest load to finish in a `defer`, failed or not, and stores a dashboard only if no
// newer load has finished: an older load that succeeds after a newer one failed is not shown.
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
  private var started = 0
  private var newestFinished = 0

  public init(service: any DashboardService) {
    self.service = service
  }

  public func load() async throws -> DashboardContent {
    started += 1
    let mine = started
    // Whatever happens, a load that has ended makes every older one out of date.
    defer { newestFinished = max(newestFinished, mine) }
    async let profile = service.content(for: .profile)
    async let portfolio = service.content(for: .portfolio)
    async let orders = service.content(for: .orders)
    async let news = service.content(for: .news)
    let loaded = try await DashboardContent(
      profile: profile, portfolio: portfolio, orders: orders, news: news)
    if mine > newestFinished {
      content = loaded
    }
    return loaded
  }
}
