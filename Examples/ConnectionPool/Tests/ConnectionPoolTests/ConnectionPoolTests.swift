import ConnectionPool
import ScheduleExplorer
import Testing

@Suite("A pool of one connection", .testScheduler, .serialized)
struct ConnectionPoolTests {
  @Test("A released connection goes to the next caller, without opening another")
  func releasedConnectionIsReused() async throws {
    let scenario = Scenario()
    let connector = FakeConnector(scenario)
    let pool = ConnectionPool(connector: connector, limit: 1)
    connector.open()
    let first = try await scenario.call("acquire()") { try await pool.acquire() }
    await pool.release(first)
    let second = try await scenario.call("acquire()") { try await pool.acquire() }
    #expect(second == first)
    #expect(connector.requestsStarted == 1)
  }

  @Test("Every interleaving of two callers keeps the pool within its limit")
  func everyInterleavingKeepsThePromise() async {
    await Exploration(PoolWorld.self, calls: [.acquire, .acquire]).run()
  }
}

/// The pool in the world the explorer runs it in: a fresh pool of one and its connector for every
/// schedule, and the promise the pool keeps.
struct PoolWorld: ExplorationWorld {
  let connector: FakeConnector
  let pool: ConnectionPool
  let limit = 1

  init(_ scenario: Scenario) {
    connector = FakeConnector(scenario)
    pool = ConnectionPool(connector: connector, limit: limit)
  }

  var fakes: [any FakeService] { [connector] }

  func perform(_ call: MethodCall) async throws -> any Sendable {
    try await pool.acquire()
  }

  /// The promise: the pool never has more connections open, or opening, than its limit.
  func checkPromise(_ moment: Moment<Self>) async {
    let requests = connector.requests
    let open = requests.records.filter { !$0.threw }
    moment.expect(
      open.count <= limit, "within the limit",
      """
      The pool may open \(limit) connection, but \(open.count) were open or opening: \
      \(open.map(requests.name(of:)).joined(separator: ", ")).
      """)
  }
}

extension MethodCall {
  static let acquire = MethodCall("acquire()")
}
