import ScheduleExplorer
import Services

/// A ``DashboardService`` whose panels load only when the test lets them.
///
/// What ``DashboardService`` documents, and how this fake does it:
/// - "The backend that serves each panel's content": the outcome `content`, such as "profile
///   content, as load #5 found it", each panel answered when the test lets it, in any order. The
///   content names the request that brought it, as a backend's content differs from one moment to
///   the next, so a test can tell which load's answer a dashboard shows.
/// - Besides: the outcome `error`, a ``FakeNetworkError``, also for a panel that ``fail(_:)``
///   named. A cancelled request throws `CancellationError` at once, or winds down (the outcome
///   `cancelled`), or answers anyway (``Requests/Cancellation/isIgnored``).
public final class FakeDashboardService: DashboardService, FakeService {
  public let requests: Requests
  private let failing = Locked<Set<DashboardPanel>>([])

  public init(_ scenario: Scenario) {
    requests = Requests(noun: "load", outcomes: ["content", "error"], scenario: scenario)
  }

  /// Makes `panel` fail when it is released.
  public func fail(_ panel: DashboardPanel) {
    failing.withLock { _ = $0.insert(panel) }
  }

  /// The number of the request that loads `panel`, once it has started.
  public func request(for panel: DashboardPanel) -> Int? {
    (1...max(requests.started, 1)).first { requests.key(of: $0) == panel.rawValue }
  }

  public func content(for panel: DashboardPanel) async throws -> String {
    try await requests.perform(for: panel.rawValue) { number, outcome in
      if outcome == "error" || self.failing.value.contains(panel) {
        throw FakeNetworkError(request: number)
      }
      return (Self.content(for: panel, request: number), "returns the \(panel.rawValue) panel")
    }
  }

  /// What `panel` shows once request `number` has loaded it.
  public static func content(for panel: DashboardPanel, request number: Int) -> String {
    "\(panel.rawValue) content, as load #\(number) found it"
  }
}
