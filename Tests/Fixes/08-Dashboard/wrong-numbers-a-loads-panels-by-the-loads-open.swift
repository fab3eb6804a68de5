// Expected to fail: A load that starts after one has ended, while another runs, shows its own panels
// Gathers each load's panels in the dashboard, under a number taken from how many loads are open.
// A takes 0 and B takes 1; A ends, so one load is open, and C takes 1 too: B and C gather their
// panels in one place, and one returns the other's.
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
  private var slots: [Int: [DashboardPanel: String]] = [:]

  public init(service: any DashboardService) {
    self.service = service
  }

  private func record(_ text: String, for panel: DashboardPanel, in slot: Int) {
    slots[slot, default: [:]][panel] = text
  }

  public func load() async throws -> DashboardContent {
    let slot = slots.count
    slots[slot] = [:]
    defer { slots[slot] = nil }
    let service = self.service
    try await withThrowingTaskGroup(of: Void.self) { group in
      for panel in DashboardPanel.allCases {
        group.addTask {
          let text = try await service.content(for: panel)
          await self.record(text, for: panel, in: slot)
        }
      }
      try await group.waitForAll()
    }
    let panels = slots[slot] ?? [:]
    guard let profile = panels[.profile], let portfolio = panels[.portfolio],
      let orders = panels[.orders], let news = panels[.news]
    else { throw CancellationError() }
    let loaded = DashboardContent(
      profile: profile, portfolio: portfolio, orders: orders, news: news)
    content = loaded
    return loaded
  }
}
