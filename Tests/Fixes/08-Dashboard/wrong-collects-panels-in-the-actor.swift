// Expected to fail: Two loads that overlap, with at most one answer out of order, each show their own panels
// Loads the panels in a task group and collects them in the actor's state as they arrive: one
// load at a time works, but a second load that starts meanwhile clears what the first collected.
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
  /// The panels of the load under way, as they arrive.
  private var arrived: [DashboardPanel: String] = [:]

  public init(service: any DashboardService) {
    self.service = service
  }

  /// Loads every panel and shows them together.
  public func load() async throws -> DashboardContent {
    arrived = [:]
    let service = service
    try await withThrowingTaskGroup(of: (DashboardPanel, String).self) { group in
      for panel in DashboardPanel.allCases {
        group.addTask { (panel, try await service.content(for: panel)) }
      }
      for try await (panel, text) in group {
        arrived[panel] = text
      }
    }
    let loaded = DashboardContent(
      profile: arrived[.profile] ?? "", portfolio: arrived[.portfolio] ?? "",
      orders: arrived[.orders] ?? "", news: arrived[.news] ?? "")
    content = loaded
    return loaded
  }
}
