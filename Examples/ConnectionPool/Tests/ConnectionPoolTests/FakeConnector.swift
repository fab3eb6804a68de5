import ConnectionPool
import ScheduleExplorer

/// A ``Connector`` whose connections open only when the test lets them.
///
/// Every `connect()` is a request in a ``Requests`` log: the test, or the explorer, decides when
/// each one ends and how, with one of ``Outcome``'s cases.
final class FakeConnector: Connector, FakeService {
  /// How a connect can end: everything `Connector` says it may do.
  enum Outcome: String, RequestOutcome {
    /// The database accepts: a new connection, numbered like its request.
    case opens
    /// The database refuses the client.
    case refused
  }

  let requests: Requests

  init(_ scenario: Scenario) {
    requests = Requests(
      noun: "connect", preposition: "to", outcomes: Outcome.self, scenario: scenario)
  }

  func connect() async throws -> Connection {
    try await requests.perform(for: "db", outcomes: Outcome.self) { number, outcome in
      switch outcome {
      case .opens: (Connection(id: number), "opens connection #\(number)")
      case .refused: throw DatabaseRefused()
      }
    }
  }
}

/// What a refused connect throws.
struct DatabaseRefused: Error {}
