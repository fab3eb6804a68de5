// Expected to fail: A reload, its panels answering in every order, at most one failing, cancelled at any moment, keeps the promise
// Shows a blank panel for a request cancelled with its load, and returns: a cancelled reload
// replaces the dashboard on screen with empty panels instead of ending with the cancellation.
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
        group.addTask {
          do { return (panel, try await service.content(for: panel)) } catch is CancellationError {
            return (panel, "")
          }
        }
      }
      var texts: [DashboardPanel: String] = [:]
      for try await (panel, text) in group { texts[panel] = text }
      return texts
    }
    let loaded = DashboardContent(
      profile: texts[.profile]!, portfolio: texts[.portfolio]!, orders: texts[.orders]!,
      news: texts[.news]!)
    content = loaded
    return loaded
  }
}
