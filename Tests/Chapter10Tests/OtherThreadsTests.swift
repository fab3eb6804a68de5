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
      try await expectEachMessageWrittenOnce(delivering: 20, inABurst: false)
    }
  }

  @Test("A burst of messages from the socket's own thread loses none of them")
  func aBurstFromTheSocketsThread() async throws {
    // The journal's first write waits until the socket has delivered all its messages, as when a
    // disk stalls while the market moves fast: every message but one waits for the feed at once.
    try await expectEachMessageWrittenOnce(delivering: 100, inABurst: true)
  }

  /// Runs a feed against a socket that delivers `count` messages from its own thread, and expects
  /// the journal to have written each of them once when `run()` returns.
  private func expectEachMessageWrittenOnce(delivering count: Int, inABurst burst: Bool)
    async throws
  {
    let scenario = Scenario()
    let socket = ThreadedFeedSocket(scenario, delivering: count)
    let journal = PacedFeedJournal(pacedBy: socket, burst: burst)
    let feed = MarketFeed(socket: socket, journal: journal)

    let runner = scenario.start(1, "run()") { await feed.run() }
    try #require(await scenario.wait { socket.isConnected }, "run() should connect to the socket")
    await socket.finished()
    _ = try await runner.results()
    try await scenario.settle()

    let sent = (1...count).map(FakeFeedSocket.sequence(ofMessage:))
    let written = journal.writtenSequence
    let missing = sent.filter { !written.contains($0) }
    let twice = Set(written.filter { number in written.count { $0 == number } > 1 }).sorted()
    let eachWrittenOnce = written.sorted() == sent
    #expect(
      eachWrittenOnce,
      """
      The socket delivered messages #\(sent[0]) to #\(sent[count - 1]) from its own thread\
      \(burst ? ", all of them while the journal's first write was still waiting" : ""). When \
      run() returned, the journal had written \(written.count) of them; \
      \(missing.isEmpty ? "none was lost" : "lost: \(shortly(missing))"), and \
      \(twice.isEmpty ? "none was written twice" : "written more than once: \(shortly(twice))"). \
      Expected each message written exactly once.
      """)
  }
}

/// `#103, #105, #107`, or the first five and how many more.
private func shortly(_ sequence: [Int]) -> String {
  sequence.count <= 5
    ? numbered(sequence) : "\(numbered(Array(sequence.prefix(5)))) and \(sequence.count - 5) more"
}
