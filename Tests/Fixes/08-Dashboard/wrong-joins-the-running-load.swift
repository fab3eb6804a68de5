// Expected to fail: Two loads that overlap, with at most one answer out of order, each show their own panels
// A load that starts while another runs joins it, as chapter 02's cache shares a download: the
// later caller gets panels the backend served before it asked, and its cancellation cannot stop
// the load it joined. A guard test once answered only the later caller's own requests, and spun
// forever on this design; it now stops when a caller waits on none of its own.
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
  private var running: Task<DashboardContent, any Error>?

  public init(service: any DashboardService) {
    self.service = service
  }

  /// Loads every panel and shows them together.
  public func load() async throws -> DashboardContent {
    // A load already on its way brings the same four panels, so there is no need for a second.
    if let running {
      return try await running.value
    }
    let load = Task { [service] in
      async let profile = service.content(for: .profile)
      async let portfolio = service.content(for: .portfolio)
      async let orders = service.content(for: .orders)
      async let news = service.content(for: .news)
      return try await DashboardContent(
        profile: profile, portfolio: portfolio, orders: orders, news: news)
    }
    running = load
    defer {
      if running == load { running = nil }
    }
    let loaded = try await withTaskCancellationHandler {
      try await load.value
    } onCancel: {
      load.cancel()
    }
    content = loaded
    return loaded
  }
}
