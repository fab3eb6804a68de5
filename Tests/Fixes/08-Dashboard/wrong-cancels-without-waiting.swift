// Expected to fail: A reload, its panels answering in every order, at most one failing, cancelled at any moment, keeps the promise
// Loads each panel in a task of its own and cancels them all on an error or a cancellation, but
// throws at once: a cancelled request that takes a moment to wind down still runs after load()
// has thrown.
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

  public init(service: any DashboardService) {
    self.service = service
  }

  /// Loads every panel and shows them together.
  public func load() async throws -> DashboardContent {
    let service = service
    let tasks = DashboardPanel.allCases.map { panel in
      Task { try await service.content(for: panel) }
    }
    do {
      let texts = try await withTaskCancellationHandler {
        var texts: [String] = []
        for task in tasks {
          texts.append(try await task.value)
        }
        return texts
      } onCancel: {
        for task in tasks { task.cancel() }
      }
      let loaded = DashboardContent(
        profile: texts[0], portfolio: texts[1], orders: texts[2], news: texts[3])
      content = loaded
      return loaded
    } catch {
      // Nothing of this load is wanted any more: stop every panel still loading.
      for task in tasks { task.cancel() }
      throw error
    }
  }
}
