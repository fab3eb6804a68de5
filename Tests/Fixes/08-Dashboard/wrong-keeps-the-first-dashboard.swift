// Expected to fail: A reload, its panels answering in every order, at most one failing, cancelled at any moment, keeps the promise
// Keeps the first dashboard it ever loaded: later loads return fresh panels, but the screen never
// shows them.
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

  public init(service: any DashboardService) { self.service = service }

  public func load() async throws -> DashboardContent {
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
    if content == nil { content = loaded }
    return loaded
  }
}
