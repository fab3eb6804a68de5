// Expected to fail: Two loads that overlap, with at most one answer out of order, each show their own panels
// Stores a dashboard only when no newer load has started since: when the newer one fails, the
// older load's fresh dashboard is dropped and the screen keeps one older still.
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
  private var generation = 0

  public init(service: any DashboardService) { self.service = service }

  public func load() async throws -> DashboardContent {
    generation += 1
    let mine = generation
    let service = self.service
    let texts = try await withThrowingTaskGroup(of: (DashboardPanel, String).self) { group in
      for panel in DashboardPanel.allCases {
        group.addTask { (panel, try await service.content(for: panel)) }
      }
      var texts: [DashboardPanel: String] = [:]
      for try await (panel, text) in group { texts[panel] = text }
      return texts
    }
    let loaded = DashboardContent(
      profile: texts[.profile]!, portfolio: texts[.portfolio]!, orders: texts[.orders]!,
      news: texts[.news]!)
    if mine == generation { content = loaded }
    return loaded
  }
}
