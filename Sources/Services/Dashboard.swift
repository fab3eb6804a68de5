/// The independent parts of a trading app's home screen.
public enum DashboardPanel: String, CaseIterable, Sendable {
  case profile
  case portfolio
  case orders
  case news
}

/// The backend that serves each panel's content.
public protocol DashboardService: Sendable {
  func content(for panel: DashboardPanel) async throws -> String
}
