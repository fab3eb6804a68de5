// Judged good: it checks by throwing an error of its own, and has no #expect.

import Foundation
import ScheduleExplorer
import Services
import Testing
import WorkbookTestSupport

@testable import Chapter14

@Suite("Chapter 14: the connection manager, as you test it", .testScheduler)
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
  struct Undelivered: Error, CustomStringConvertible {
    let description: String
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
    for result in try await callers.results() { try result.result.get() }
    guard server.connectionsOpened == 2 else {
      throw Undelivered(description: "opened \(server.connectionsOpened)")
    }
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
    for result in try await callers.results() { try result.result.get() }
    guard server.connectionsOpened == 2 else {
      throw Undelivered(description: "opened \(server.connectionsOpened)")
    }
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
    _ = try await first.results()
    server.open()
    try await scenario.call("send(\"again\")") { try await manager.send("again") }
  }
}
