// Loads the panels in a task group whose children hand each panel back to the dashboard, into a
// place of the load's own under a fresh UUID; the load reads its place once every child is done.
import Foundation
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
  private var slots: [UUID: [DashboardPanel: String]] = [:]

  public init(service: any DashboardService) {
    self.service = service
  }

  private func record(_ text: String, for panel: DashboardPanel, in slot: UUID) {
    slots[slot, default: [:]][panel] = text
  }

  public func load() async throws -> DashboardContent {
    let slot = UUID()
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
