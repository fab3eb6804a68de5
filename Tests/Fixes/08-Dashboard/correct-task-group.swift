// A task group: the first failure is thrown as soon as it happens, and the rest are cancelled.
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
    let panels = try await withThrowingTaskGroup(of: (DashboardPanel, String).self) { group in
      for panel in DashboardPanel.allCases {
        group.addTask { (panel, try await self.service.content(for: panel)) }
      }
      var panels: [DashboardPanel: String] = [:]
      for try await (panel, text) in group {
        panels[panel] = text
      }
      return panels
    }
    let loaded = DashboardContent(
      profile: panels[.profile]!, portfolio: panels[.portfolio]!, orders: panels[.orders]!,
      news: panels[.news]!)
    content = loaded
    return loaded
  }
}
