// Expected to fail: Cancelling one of two loads that overlap ends that load, and only that one
// Keeps the panel tasks of the newest load in the dashboard, by panel, and a cancelled load asks
// the dashboard to cancel the tasks it holds. While two loads overlap it holds the second's: A's
// cancellation cancels B's panels, and A waits for its own answers from the network.
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
  private var running: [DashboardPanel: Task<String, any Error>] = [:]

  public init(service: any DashboardService) {
    self.service = service
  }

  private func cancelRunning() {
    for task in running.values { task.cancel() }
  }

  public func load() async throws -> DashboardContent {
    let service = self.service
    for panel in DashboardPanel.allCases {
      running[panel] = Task { try await service.content(for: panel) }
    }
    let tasks = DashboardPanel.allCases.map { running[$0]! }
    let texts: [String] = try await withTaskCancellationHandler {
      do {
        var texts: [String] = []
        for task in tasks { texts.append(try await task.value) }
        return texts
      } catch {
        cancelRunning()
        for task in tasks { _ = try? await task.value }
        throw error
      }
    } onCancel: {
      Task { await self.cancelRunning() }
    }
    let loaded = DashboardContent(
      profile: texts[0], portfolio: texts[1], orders: texts[2], news: texts[3])
    content = loaded
    return loaded
  }
}
