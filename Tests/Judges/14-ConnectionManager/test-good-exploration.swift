// Judged good: it checks with an Exploration, whose promise uses moment.expect, and has no #expect.
// The judge says: WORKBOOK_JUDGE=Judge14_yours swift test
// The judge never says: Judge14_wrong
// Its set-up calls the actor as a scripted test does, by count: that caller takes the name after
// the exploration's own callers. The replay line printed for the student's actor builds that alone.

import ScheduleExplorer
import Services
import Testing
import WorkbookTestSupport

@testable import Chapter14

struct ChatWorld: ExplorationWorld {
  let server: FakeChatServer
  let manager: ConnectionManager
  let dropped = Locked(false)

  init(_ scenario: Scenario) {
    server = FakeChatServer(scenario)
    manager = ConnectionManager(server: server)
  }

  func prepare(_ scenario: Scenario) async throws {
    server.open()
    try await scenario.call("send(\"hello\")") { try await manager.send("hello") }
    server.close()
  }

  struct Log: FakeService { let requests: Requests }
  var fakes: [any FakeService] { [Log(requests: server.connects), Log(requests: server.sends)] }

  func perform(_ call: MethodCall) async throws -> any Sendable {
    try await manager.send("hi")
  }

  func steps() -> [WorldStep] {
    dropped.value || server.openConnection == nil ? [] : [WorldStep("drop")]
  }

  func take(_ name: String) {
    dropped.withLock { $0 = true }
    server.dropConnection()
  }

  func checkPromise(_ moment: Moment<Self>) async {
    moment.expect(
      server.connectionsOpened <= 2, "one new connection",
      "After one drop the actor should open one new connection, but it opened \(server.connectionsOpened)"
    )
    guard moment.isEnd else { return }
    for caller in moment.callers where caller.operation == "send(\"hi\")" {
      let error = caller.error
      moment.expect(
        error == nil || error is FakeNetworkError, "every message arrives",
        "\(caller.name)'s message failed with \(String(describing: error)), though only one drop happened"
      )
      if let failed = error as? FakeNetworkError,
        let answered = server.connects.record(failed.request)?.answeredAt
      {
        // Once everyone who could have waited for the failed connect has heard of it, a message
        // that comes later connects again.
        let settledAt =
          moment.callers.filter { $0.startedAt < answered }.map { $0.finishedAt ?? Int.max }.max()
          ?? answered
        moment.expect(
          caller.startedAt < settledAt, "the next message connects again",
          "\(caller.name) called after connect #\(failed.request) had failed, yet failed with it")
      }
    }
  }
}

@Suite("Chapter 14: the connection manager, as you test it", .testScheduler)
struct ConnectionManagerTests {
  @Test("Every schedule of two messages and one drop keeps the promise")
  func explore() async {
    await Exploration(
      ChatWorld.self, calls: [MethodCall("send(\"hi\")"), MethodCall("send(\"hi\")")]
    ).run()
  }
}
