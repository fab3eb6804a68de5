// swift-format-ignore-file
// The judge says: Your test asserts nothing yet
// Its only #expect is inside a block comment.

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
  @Test("Nothing")
  func nothing() async throws {
    let (_, server, _) = try await online()
    /* #expect(server.connectionsOpened == 2) */
    _ = server
  }
}
