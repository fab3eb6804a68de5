import Services
import Testing
import WorkbookTestSupport

@testable import Chapter10

@Suite("Chapter 10: messages are applied in the order they arrive", .exposesBug)
struct MessageOrderTests {
  @Test("Messages are written and applied in the order the socket delivered them")
  func messagesAreAppliedInOrder() async throws {
    let scenario = Scenario()
    let socket = FakeFeedSocket(scenario)
    let journal = FakeFeedJournal(scenario)
    let feed = MarketFeed(socket: socket, journal: journal)

    let runner = scenario.start(1, "run()") { await feed.run() }
    try #require(await scenario.wait { socket.isConnected }, "run() should connect to the socket")
    for _ in 1...3 {
      socket.deliverNext()
    }
    // Each round lets the feed do all it can, then lets the write of the newest message finish
    // first, the way a network or a disk sometimes does.
    for _ in 1...3 {
      try await scenario.settle()
      guard let newest = journal.waitingAppendOfNewestMessage else { break }
      journal.release(newest)
    }
    socket.close()
    journal.open()
    _ = try await runner.results()

    #expect(
      journal.writtenSequence == [1, 2, 3],
      scenario.explain(
        """
        The socket delivered messages 1, 2 and 3, and the journal wrote them in the order \
        \(journal.writtenSequence.map(String.init).joined(separator: ", ")). Each message was \
        handed to a `Task {}` of its own, and each task suspended at `await journal.append`: \
        while one waited, the next entered the actor, so the order in which they finish decides \
        the order of the journal and of the prices. Unstructured tasks promise no order.
        """,
        correctly: "message 2 is not written until message 1 is, and message 3 waits for message 2."
      )
    )
  }
}

@Suite("Chapter 10: what the feed must keep doing")
struct MarketFeedGuardTests {
  @Test("Every message is written once and its price applied")
  func everyMessageIsAppliedOnce() async throws {
    let scenario = Scenario()
    let socket = FakeFeedSocket(scenario)
    let journal = FakeFeedJournal(scenario)
    let feed = MarketFeed(socket: socket, journal: journal)
    journal.open()

    let runner = scenario.start(1, "run()") { await feed.run() }
    try #require(await scenario.wait { socket.isConnected }, "run() should connect to the socket")
    for _ in 1...3 {
      socket.deliverNext()
    }
    let allWritten = await scenario.wait { journal.requests.finished == 3 }
    socket.close()
    _ = try await runner.results()
    let price = try await scenario.call("prices[ACME]") { await feed.prices["ACME"] }

    #expect(allWritten, "all three messages should reach the journal")
    #expect(
      journal.writtenSequence.sorted() == [1, 2, 3],
      "each message should be written exactly once; written: \(journal.writtenSequence)"
    )
    #expect(price != nil, "the feed should apply the prices it receives")
  }

  @Test("Closing the socket ends run()")
  func closingTheSocketEndsRun() async throws {
    let scenario = Scenario()
    let socket = FakeFeedSocket(scenario)
    let journal = FakeFeedJournal(scenario)
    let feed = MarketFeed(socket: socket, journal: journal)
    journal.open()

    let runner = scenario.start(1, "run()") { await feed.run() }
    try #require(await scenario.wait { socket.isConnected }, "run() should connect to the socket")
    socket.deliverNext()
    _ = await scenario.wait { journal.requests.finished == 1 }
    socket.close()
    let ended = await scenario.wait { runner.allFinished }

    #expect(
      ended,
      scenario.explain(
        "the socket closed, but run() did not return: is the message stream ever finished?",
        correctly: "run() returns once the socket has closed and the last message is applied."
      )
    )
  }
}
