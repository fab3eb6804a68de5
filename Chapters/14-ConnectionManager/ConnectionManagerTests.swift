// Your tests of the connection manager. Write the calls and the promise until a test goes red on
// the actor in ConnectionManager.swift, then run `swift run workbook check 14`: it tries your
// tests on the workbook's wrong fixes and right designs before you fix the actor.

import ScheduleExplorer
import Services
import Testing
import WorkbookTestSupport

@testable import Chapter14

@Suite("Chapter 14: the connection manager, as you test it", .testScheduler)
struct ConnectionManagerTests {
  @Test("Messages on their way when the connection drops all arrive, over one new connection")
  func messagesOnTheirWayWhenTheConnectionDrops() async throws {
    let scenario = Scenario()
    let server = FakeChatServer(scenario)
    let manager = ConnectionManager(server: server)

    // The app is online: its first message opened connection #1.
    server.open()
    try await scenario.call("send(\"hello\")") { try await manager.send("hello") }
    server.close()

    // TODO: start the messages that are on their way when the network drops connection #1, drop
    // it under them, let the server answer in the order the users' reports point at, and #expect
    // what every user should see.
  }
}
