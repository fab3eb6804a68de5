// Loads each panel in a Task.detached, awaits them in order, and cancels them all on an error or a
// cancellation.
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
    let service = self.service
    let requests = DashboardPanel.allCases.map { panel in
      Task.detached { try await service.content(for: panel) }
    }
    return try await withTaskCancellationHandler {
      do {
        var panels: [String] = []
        for request in requests {
          panels.append(try await request.value)
        }
        let loaded = DashboardContent(
          profile: panels[0], portfolio: panels[1], orders: panels[2], news: panels[3])
        content = loaded
        return loaded
      } catch {
        for request in requests { request.cancel() }
        for request in requests { _ = try? await request.value }
        throw error
      }
    } onCancel: {
      for request in requests { request.cancel() }
    }
  }
}
