// A student's test that catches the starter's bug and stops there: the workbook's self-check
// proves that the judge tells it which wrong fix it misses. It is the workbook's first test alone.

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

    let messages = scenario.start(1, "send(\"hi\")") { try await manager.send("hi") }
    let late = scenario.start(1, "send(\"bye\")") { try await manager.send("bye") }
    try await scenario.settle()
    server.dropConnection()
    // "hi" finds out first, and reconnects; "bye" finds out only once the new connection is open.
    server.sends.release(2)
    try await scenario.settle()
    server.connects.release(2)
    try await scenario.settle()
    server.sends.release(3)
    try await scenario.settle()
    server.open()
    let results = try await messages.results() + late.results()

    #expect(
      server.connectionsOpened == 2 && results.allSatisfy { $0.error == nil }
        && server.delivered.sorted() == ["bye", "hello", "hi"],
      scenario.explain(
        """
        The network dropped connection #1 under "hi" and "bye". "hi" found out first and \
        reconnected; "bye" found out only once connection #2 was open. Of the two messages, \
        \(describe(sent: results)); the server opened \(server.connectionsOpened) connections \
        in all, and got \(server.delivered).
        """,
        correctly: "\"bye\" goes out on connection #2 as well; connection #2 is the only new one."
      )
    )
  }
}
