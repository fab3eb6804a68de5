import ScheduleExplorer
import Services
import Testing
import WorkbookTestSupport

@testable import Chapter10

@Suite("Chapter 10: messages from the socket's own thread", .testScheduler)
struct MarketFeedThreadTests {
  @Test("Messages the socket delivers from its own thread are each written once")
  func messagesFromTheSocketsThread() async throws {
    // The socket's thread calls the feed while the feed applies earlier messages on another: the
    // journal writes each message only once the socket has delivered the next. State the two
    // share without synchronising is a data race, which `Scripts/check-threads` reports. The
    // order of the messages is the exploration's to check; here every design must at least write
    // each one once.
    for _ in 0..<OtherThreads.rounds {
      let scenario = Scenario()
      let socket = ThreadedFeedSocket(scenario, delivering: 20)
      let journal = PacedFeedJournal(pacedBy: socket)
      let feed = MarketFeed(socket: socket, journal: journal)

      let runner = scenario.start(1, "run()") { await feed.run() }
      try #require(
        await scenario.wait { socket.isConnected }, "run() should connect to the socket")
      await socket.finished()
      _ = try await runner.results()
      try await scenario.settle()

      let sent = (1...20).map(FakeFeedSocket.sequence(ofMessage:))
      #expect(
        journal.writtenSequence.sorted() == sent,
        """
        The socket delivered messages #\(sent[0]) to #\(sent[19]) from its own thread, and the \
        journal got \(journal.writtenSequence); expected each message written exactly once.
        """)
    }
  }
}
