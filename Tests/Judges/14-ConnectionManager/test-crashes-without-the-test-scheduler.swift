// The judge says: ScheduleExplorer/Scenario.swift:
// The judge says: Fatal error: A Scenario runs its callers on the test scheduler
// The judge never says: Current stack trace
// The judge never says: 0 of 0
// Its suite lacks the .testScheduler trait: the first Scenario stops the test process.

import ScheduleExplorer
import Services
import Testing
import WorkbookTestSupport

@testable import Chapter14

@Suite("Chapter 14: the connection manager, as you test it")
struct ConnectionManagerTests {
  func online() async throws -> (Scenario, FakeChatServer, ConnectionManager) {
    let scenario = Scenario()
    let server = FakeChatServer(scenario)
    let manager = ConnectionManager(server: server)
    server.open()
    try await scenario.call("send(\"hello\")") { try await manager.send("hello") }
    server.close()
    return (scenario, server, manager)
  }

  @Test("One learns of the drop after the other has reconnected")
  func lateFailure() async throws {
    let (scenario, server, manager) = try await online()
    let callers = scenario.start(2, "send(\"hi\")") { try await manager.send("hi") }
    try await scenario.settle()
    server.dropConnection()
    server.sends.release(2)
    try await scenario.settle()
    server.connects.release(2)
    try await scenario.settle()
    server.sends.release(3)
    try await scenario.settle()
    server.open()
    let results = try await callers.results()
    #expect(
      results.allSatisfy { $0.error == nil },
      scenario.explain(
        "Every message should arrive: \(describe(sent: results))",
        correctly: "C sends again on connection #2"))
    #expect(server.connectionsOpened == 2)
  }

  @Test("Both learn of the drop at once")
  func bothAtOnce() async throws {
    let (scenario, server, manager) = try await online()
    let callers = scenario.start(2, "send(\"hi\")") { try await manager.send("hi") }
    try await scenario.settle()
    server.dropConnection()
    server.sends.release(2)
    server.sends.release(3)
    try await scenario.settle()
    for number in 2...4 {
      server.connects.release(number)
      try await scenario.settle()
    }
    server.open()
    let results = try await callers.results()
    #expect(
      results.allSatisfy { $0.error == nil },
      scenario.explain(
        "Every message should arrive: \(describe(sent: results))",
        correctly: "B and C share connect #2"))
    #expect(server.connectionsOpened == 2)
  }
  @Test("After a failed reconnect, the next message connects again")
  func failedReconnect() async throws {
    let (scenario, server, manager) = try await online()
    let first = scenario.start(1, "send(\"hi\")") { try await manager.send("hi") }
    try await scenario.settle()
    server.dropConnection()
    server.sends.release(2)
    try await scenario.settle()
    server.connects.release(2, as: "error")
    let failed = try await first.results()
    #expect(failed[0].error is FakeNetworkError)
    server.open()
    let later = scenario.start(1, "send(\"again\")") { try await manager.send("again") }
    let results = try await later.results()
    #expect(
      results.allSatisfy { $0.error == nil },
      scenario.explain(
        "The next message should connect again: \(describe(sent: results))",
        correctly: "C opens connection #2 with connect #3"))
  }
}
