import ScheduleExplorer
import Services
import Testing
import WorkbookTestSupport

@testable import Chapter10

@Suite("Chapter 10: messages are applied in the order they arrive", .testScheduler, .exposesBug)
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
    let writtenInOrder = journal.writtenSequence == [1, 2, 3]

    #expect(
      writtenInOrder,
      scenario.explain(
        """
        The socket delivered messages 1, 2 and 3, and the journal wrote them in the order \
        \(journal.writtenSequence.map(String.init).joined(separator: ", ")). Up to \
        \(journal.mostRequestsAtOnce) writes were waiting at `await journal.append` at the same \
        time: a message entered the actor while an earlier one was still suspended there, so the \
        order in which the writes finished decided the order of the journal and of the prices.
        """,
        correctly: "message 2 is not written until message 1 is, and message 3 waits for message 2."
      )
    )
  }

  @Test("run() returns only once every message it received is applied")
  func runReturnsOnlyOnceEverythingIsApplied() async throws {
    let scenario = Scenario()
    let socket = FakeFeedSocket(scenario)
    let journal = FakeFeedJournal(scenario)
    let feed = MarketFeed(socket: socket, journal: journal)

    let runner = scenario.start(1, "run()") { await feed.run() }
    try await scenario.settle()
    socket.deliverNext()
    socket.deliverNext()
    try await scenario.settle()
    socket.close()
    try await scenario.settle()
    let returnedEarly = runner.allFinished
    journal.open()
    _ = try await runner.results()
    let applied = try await scenario.call("lastSequence") { await feed.lastSequence }

    #expect(
      !returnedEarly && applied == 2,
      scenario.explain(
        """
        The socket delivered messages 1 and 2 and closed while their writes were still waiting. \
        run() \(returnedEarly ? "had already returned then" : "waited"), and \
        \(applied == 2 ? "both were applied in the end" : "only \(applied) of them were applied in the end"): \
        whoever awaits run() takes its return to mean that everything received is applied.
        """,
        correctly: "run() returns after message 2 is written and applied."
      )
    )
  }
}

@Suite("Chapter 10: what the feed must keep doing", .testScheduler)
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
        "the socket closed and its message was applied, but run() did not return",
        correctly: "run() returns once the socket has closed and the last message is applied."
      )
    )
  }
}

@Suite("Chapter 10: every interleaving", .testScheduler, .exposesBug)
struct MarketFeedExplorationTests {
  @Test("Three messages, in every order and with one hold at most, are applied once and in order")
  func everyInterleavingKeepsThePromise() async {
    await Exploration(MarketFeedWorld.self, calls: [MethodCall("run()")]).run()
  }
}

/// The feed in a world whose socket delivers up to three messages, with the promise it keeps in
/// every schedule.
struct MarketFeedWorld: ExplorationWorld {
  static let deliveries = 3

  let socket: FakeFeedSocket
  let journal: FakeFeedJournal
  let feed: MarketFeed

  init(_ scenario: Scenario) {
    socket = FakeFeedSocket(scenario)
    journal = FakeFeedJournal(scenario)
    feed = MarketFeed(socket: socket, journal: journal)
  }

  var fakes: [any FakeService] { [journal] }

  func perform(_ call: MethodCall) async throws -> any Sendable {
    await feed.run()
  }

  func steps() -> [WorldStep] {
    guard socket.isConnected else { return [] }
    let left = Self.deliveries - socket.delivered
    // A socket's thread may call back twice before anything else runs: `deliver2` does that.
    let deliver = left > 0 ? [WorldStep("deliver")] : []
    let burst = left > 1 ? [WorldStep("deliver2")] : []
    return deliver + burst + [WorldStep("close", endsTheRun: true)]
  }

  func take(_ name: String) {
    switch name {
    case "deliver": socket.deliverNext()
    case "deliver2":
      socket.deliverNext()
      socket.deliverNext()
    default: socket.close()
    }
  }

  /// Messages are written to the journal in the order the socket delivered them, each once, and
  /// each applied right after it is written; and run() returns once the socket has closed and
  /// every message delivered is written and applied, never before.
  func checkPromise(_ moment: Moment<Self>) async {
    let written = journal.writtenSequence
    let delivered = socket.delivered
    moment.expect(
      written == (0..<written.count).map { $0 + 1 },
      "the journal keeps the socket's order",
      """
      The socket delivered \(messages(delivered)), and the journal holds them in the order \
      \(written.map(String.init).joined(separator: ", ")): every message must be written once, \
      after the one before it.
      """)
    let (applied, price) = await (feed.lastSequence, feed.prices["ACME"])
    moment.expect(
      applied <= written.count, "a message is written before it is applied",
      "Message \(applied) was applied, but only \(written.count) messages were written.")
    if applied > 0 {
      moment.expect(
        price == FakeFeedSocket.message(applied).price, "prices follow the messages applied",
        """
        The last message applied is \(applied), whose price is \
        \(dollars(FakeFeedSocket.message(applied).price)), but ACME shows \
        \(price.map(dollars) ?? "no price").
        """)
    }
    let runner = moment.callers.first
    if runner?.hasFinished == true {
      moment.expect(
        written.count == delivered && applied == delivered, "run() returns when all is applied",
        """
        run() returned with \(messages(delivered)) delivered, \(written.count) written and \
        \(applied) applied: it should not return until every message it received is written and \
        applied.
        """)
    } else if !moment.someoneIsHeld && !journal.requests.records.contains(where: \.isInFlight) {
      moment.expect(
        applied == written.count, "a written message is applied at once",
        "\(messages(written.count)) written, but only \(applied) applied.")
      if socket.isClosed && written.count == delivered {
        moment.expect(
          false, "run() returns once the socket closes",
          """
          The socket closed and every message was written and applied, but run() had not \
          returned.
          """)
      }
    }
  }
}

/// `1 message`, `3 messages`.
private func messages(_ count: Int) -> String {
  count == 1 ? "1 message" : "\(count) messages"
}
