// Starts a Task per panel and owns them by hand: a cancellation handler cancels them all, a
// failure cancels the rest, and load() waits for every one before it returns or throws.
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
    let tasks = DashboardPanel.allCases.map { panel in
      Task { try await service.content(for: panel) }
    }
    let texts: [String] = try await withTaskCancellationHandler {
      do {
        var texts: [String] = []
        for task in tasks { texts.append(try await task.value) }
        return texts
      } catch {
        for task in tasks { task.cancel() }
        for task in tasks { _ = await task.result }
        throw error
      }
    } onCancel: {
      for task in tasks { task.cancel() }
    }
    let loaded = DashboardContent(
      profile: texts[0], portfolio: texts[1], orders: texts[2], news: texts[3])
    content = loaded
    return loaded
  }
}
