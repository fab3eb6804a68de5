// Expected to fail: Two loads that overlap, with at most one answer out of order, each show their own panels
// Collects the panels' answers in one dictionary of the actor's, which overlapping loads share,
// so a load can return a panel that the other load's request brought.
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
  private var panels: [DashboardPanel: String] = [:]

  public init(service: any DashboardService) { self.service = service }

  private func store(_ text: String, for panel: DashboardPanel) { panels[panel] = text }

  public func load() async throws -> DashboardContent {
    let service = self.service
    try await withThrowingTaskGroup(of: Void.self) { group in
      for panel in DashboardPanel.allCases {
        group.addTask {
          let text = try await service.content(for: panel)
          await self.store(text, for: panel)
        }
      }
      try await group.waitForAll()
    }
    let loaded = DashboardContent(
      profile: panels[.profile]!, portfolio: panels[.portfolio]!, orders: panels[.orders]!,
      news: panels[.news]!)
    content = loaded
    return loaded
  }
}
