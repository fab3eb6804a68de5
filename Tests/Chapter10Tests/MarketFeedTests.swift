import ScheduleExplorer
import Services
import Testing
import WorkbookTestSupport

@testable import Chapter10

/// A feed in a scenario of its own, with `run()` started and connected to its socket. The socket
/// delivers nothing until the test says so, and the journal's writes wait until the test lets
/// them finish.
private func aRunningFeed() async throws -> (
  Scenario, FakeFeedSocket, FakeFeedJournal, MarketFeed, Callers<Void>
) {
  let scenario = Scenario()
  let socket = FakeFeedSocket(scenario)
  let journal = FakeFeedJournal(scenario)
  let feed = MarketFeed(socket: socket, journal: journal)
  let runner = scenario.start(1, "run()") { await feed.run() }
  try #require(await scenario.wait { socket.isConnected }, "run() should connect to the socket")
  return (scenario, socket, journal, feed, runner)
}

@Suite("Chapter 10: messages are applied in the order they arrive", .testScheduler, .exposesBug)
struct MessageOrderTests {
  @Test("Messages are written and applied in the order the socket delivered them")
  func messagesAreAppliedInOrder() async throws {
    let (scenario, socket, journal, _, runner) = try await aRunningFeed()
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
    let sent = (1...3).map(FakeFeedSocket.sequence(ofMessage:))
    let writtenInOrder = journal.writtenSequence == sent

    #expect(
      writtenInOrder,
      scenario.explain(
        """
        The socket delivered messages #\(sent[0]), #\(sent[1]) and #\(sent[2]), and the journal \
        wrote them in the order \(numbered(journal.writtenSequence)). Up to \
        \(journal.mostRequestsAtOnce) writes were waiting at `await journal.append` at the same \
        time: a message entered the actor while an earlier one was still suspended there, so the \
        order in which the writes finished decided the order of the journal and of the prices.
        """,
        correctly: """
          message #\(sent[1]) is not written until message #\(sent[0]) is, and message \
          #\(sent[2]) waits for message #\(sent[1]).
          """
      )
    )
  }

  @Test("run() returns only once every message it received is applied")
  func runReturnsOnlyOnceEverythingIsApplied() async throws {
    let (scenario, socket, journal, feed, runner) = try await aRunningFeed()
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
    let sent = (1...2).map(FakeFeedSocket.sequence(ofMessage:))

    #expect(
      !returnedEarly && applied == sent[1],
      scenario.explain(
        """
        The socket delivered messages #\(sent[0]) and #\(sent[1]) and closed while their writes \
        were still waiting. run() \(returnedEarly ? "had already returned then" : "waited"), and \
        \(applied == sent[1] ? "both were applied in the end" : "the last message applied in the end was \(applied == 0 ? "none" : "#\(applied)")"): \
        whoever awaits run() takes its return to mean that everything received is applied.
        """,
        correctly: "run() returns after message #\(sent[1]) is written and applied."
      )
    )
  }

  @Test("A message delivered just before the socket closes is applied before run() returns")
  func aMessageDeliveredAsTheSocketClosesIsApplied() async throws {
    let (scenario, socket, journal, _, runner) = try await aRunningFeed()
    journal.open()
    // Work the message starts off the socket's thread may start late, as it may on a busy pool of
    // threads: here, after the socket has closed.
    scenario.holdNewTasks()
    socket.deliverNext()
    socket.close()
    try await scenario.settle()
    let returnedEarly = runner.allFinished
    let writtenByThen = journal.writtenSequence
    scenario.letHeldTasksRun()
    _ = try await runner.results()
    let sent = FakeFeedSocket.sequence(ofMessage: 1)

    #expect(
      !returnedEarly || writtenByThen == [sent],
      scenario.explain(
        """
        The socket delivered message #\(sent) and closed at once, and work that the message \
        started had not yet begun. run() returned then, with \
        \(writtenByThen.isEmpty ? "nothing" : numbered(writtenByThen)) written: whoever awaits \
        run() takes its return to mean that every message it received is applied.
        """,
        correctly: "run() returns after message #\(sent) is written and applied."
      )
    )
  }

  @Test("Messages delivered just before the socket closes are written in the order they arrived")
  func messagesDeliveredAsTheSocketClosesStayInOrder() async throws {
    let (scenario, socket, journal, _, runner) = try await aRunningFeed()
    // As in the test before, work the messages start may start only after the socket has closed;
    // here their writes wait as well, and the newest of those waiting finishes first.
    scenario.holdNewTasks()
    socket.deliverNext()
    socket.deliverNext()
    socket.close()
    try await scenario.settle()
    scenario.letHeldTasksRun()
    for _ in 1...2 {
      try await scenario.settle()
      guard let newest = journal.waitingAppendOfNewestMessage else { break }
      journal.release(newest)
    }
    journal.open()
    _ = try await runner.results()
    let sent = (1...2).map(FakeFeedSocket.sequence(ofMessage:))

    #expect(
      journal.writtenSequence == sent,
      scenario.explain(
        """
        The socket delivered messages #\(sent[0]) and #\(sent[1]) and closed at once, before work \
        that the messages started had begun. The journal wrote them in the order \
        \(numbered(journal.writtenSequence)): up to \(journal.mostRequestsAtOnce) writes were \
        waiting at `await journal.append` at the same time, so the order in which the writes \
        finished decided the order of the journal.
        """,
        correctly: """
          message #\(sent[1]) is not written until message #\(sent[0]) is, also once the socket \
          has closed.
          """
      )
    )
  }
}

@Suite("Chapter 10: what the feed must keep doing", .testScheduler)
struct MarketFeedGuardTests {
  @Test("Every message is written once and its price applied")
  func everyMessageIsAppliedOnce() async throws {
    let (scenario, socket, journal, feed, runner) = try await aRunningFeed()
    journal.open()
    for _ in 1...3 {
      socket.deliverNext()
    }
    let allWritten = await scenario.wait { journal.requests.finished == 3 }
    socket.close()
    _ = try await runner.results()
    let price = try await scenario.call("prices[ACME]") { await feed.prices["ACME"] }

    #expect(allWritten, "all three messages should reach the journal")
    #expect(
      journal.writtenSequence.sorted() == (1...3).map(FakeFeedSocket.sequence(ofMessage:)),
      "each message should be written exactly once; written: \(journal.writtenSequence)"
    )
    #expect(price != nil, "the feed should apply the prices it receives")
  }

  @Test("A message is applied right after its write, before the feed steps away")
  func aMessageIsAppliedBeforeTheFeedStepsAway() async throws {
    let (scenario, socket, journal, feed, runner) = try await aRunningFeed()
    socket.deliverNext()
    try await scenario.settle()
    // Once the write has finished, the feed is stopped the next time it leaves the actor, for
    // whatever it leaves for; a reader meanwhile sees what the feed has applied.
    runner.holdWhenTheyLeaveTheActor()
    if let write = journal.waitingAppendOfNewestMessage { journal.release(write) }
    try await scenario.settle()
    let written = journal.writtenSequence
    let applied = try await scenario.call("lastSequence") { await feed.lastSequence }
    runner.release()
    socket.close()
    journal.open()
    _ = try await runner.results()

    #expect(
      written.isEmpty || applied == written.last,
      scenario.explain(
        """
        Message #\(written.last ?? 0) was written, and then the feed stepped away from the actor \
        with lastSequence still \(applied == 0 ? "0, no message applied" : "#\(applied)"): \
        for as long as that step lasts, a reader of the feed sees an older state than the journal \
        holds.
        """,
        correctly: "lastSequence is #\(written.last ?? 0) as soon as its write has finished."
      )
    )
  }

  @Test("Closing the socket ends run()")
  func closingTheSocketEndsRun() async throws {
    let (scenario, socket, journal, _, runner) = try await aRunningFeed()
    journal.open()
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
    await Exploration(
      MarketFeedWorld.self, calls: [MethodCall("run()")],
      // The feed's one caller leaves the actor between two messages only to take the next one
      // from its queue, with no other caller to let in; holding it there took the exploration
      // from 351 schedules to 1185.
      bounds: ExplorationBounds(holdsOffTheActor: 0)
    ).run()
  }
}

/// The feed in a world whose socket delivers up to three messages, with the promise it keeps in
/// every schedule.
struct MarketFeedWorld: ChapterWorld {
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
    let sent = (0..<delivered).map { FakeFeedSocket.sequence(ofMessage: $0 + 1) }
    moment.expect(
      written == Array(sent.prefix(written.count)),
      "the journal keeps the socket's order",
      """
      The socket delivered \(messages(delivered))\(sent.isEmpty ? "" : ", \(numbered(sent)),"), and \
      the journal holds \(written.isEmpty ? "none of them" : "them in the order \(numbered(written))"): \
      every message must be written once, after the one before it.
      """)
    let (lastSequence, price) = await (feed.lastSequence, feed.prices["ACME"])
    // How many messages the feed has applied, if they were applied in order: the last one's place
    // among those the socket delivered.
    let position = FakeFeedSocket.position(ofSequence: lastSequence, amongFirst: delivered)
    moment.expect(
      lastSequence == 0 || position != nil, "a message is applied only if it was delivered",
      """
      lastSequence is \(lastSequence), and the socket delivered \(messages(delivered))\
      \(sent.isEmpty ? "" : ", \(numbered(sent))"): no message applied carries that number.
      """)
    let applied = position ?? 0
    moment.expect(
      applied <= written.count, "a message is written before it is applied",
      """
      Message #\(lastSequence), the socket's \(ordinal(applied)), was applied, but only \
      \(messages(written.count)) written.
      """)
    if applied > 0 {
      moment.expect(
        price == FakeFeedSocket.message(applied).price, "prices follow the messages applied",
        """
        The last message applied is #\(lastSequence), whose price is \
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
    } else if !moment.someoneIsHeld {
      // Also while the next write waits: a message is applied right after its write, before the
      // feed turns to anything else, the next write included.
      let writing = journal.requests.records.contains(where: \.isInFlight)
      moment.expect(
        applied == written.count, "a written message is applied at once",
        """
        \(messages(written.count)) written, but only \(applied) applied\
        \(writing ? ", while the next write waited" : "").
        """)
      if !writing && socket.isClosed && written.count == delivered {
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

/// `#101, #103, #105`.
func numbered(_ sequence: [Int]) -> String {
  sequence.map { "#\($0)" }.joined(separator: ", ")
}

/// `first`, `second`, `third`, `4th`.
private func ordinal(_ n: Int) -> String {
  n <= 3 ? ["zeroth", "first", "second", "third"][n] : "\(n)th"
}
