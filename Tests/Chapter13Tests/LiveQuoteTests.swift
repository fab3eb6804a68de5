import ScheduleExplorer
import Services
import Testing
import WorkbookTestSupport

@testable import Chapter13

/// A quote over a fake socket, and the listeners a test starts.
private struct Screen {
  let scenario = Scenario()
  let socket: FakeTickerSocket

  init() {
    socket = FakeTickerSocket(scenario)
  }

  func quote() -> LiveQuote {
    LiveQuote(symbol: socket.symbol, socket: socket)
  }

  /// Starts a caller that listens to `quote`'s ticks until the stream ends, and returns the
  /// ticks it received.
  func listen(to quote: LiveQuote) -> Callers<Received> {
    scenario.start(1, "for await tick in ticks()") {
      var received = Received()
      for await tick in quote.ticks() {
        received.ticks.append(tick)
      }
      return received
    }
  }

  /// How connection `number` stands, in a message.
  func state(of number: Int) -> String {
    guard let connection = socket.connections.first(where: { $0.number == number }) else {
      return "connection #\(number) never opened"
    }
    if !connection.isClosed {
      return """
        connection #\(number) was still open: the socket would go on sending ticks that nobody \
        reads, and the task that connected was still running
        """
    }
    return connection.hasReturned
      ? "connection #\(number) was closed"
      : "connection #\(number) was closed, but connect had not returned"
  }
}

/// The ticks a listener received, drawn in a timeline the way a single tick is:
/// `gets tick #1 ($100.01)`, `gets tick #1 ($100.01) and tick #2 ($100.02)`.
private struct Received: Sendable, CustomTestStringConvertible {
  var ticks: [Tick] = []

  /// The ticks' sequence numbers, in the order they arrived.
  var sequences: [Int] { ticks.map(\.sequence) }

  var testDescription: String {
    let each = ticks.map(describe)
    guard let last = each.last else { return "no tick" }
    return each.count == 1 ? last : "\(each.dropLast().joined(separator: ", ")) and \(last)"
  }
}

@Suite("Chapter 13: nothing outlives its listener", .testScheduler, .exposesBug)
struct LifetimeTests {
  @Test("A listener whose task is cancelled closes its connection")
  func cancelledListenerClosesItsConnection() async throws {
    let screen = Screen()
    let quote = screen.quote()
    let listener = screen.listen(to: quote)
    try await screen.scenario.settle()
    screen.socket.sendNext()
    try await screen.scenario.settle()
    listener.cancel()
    try await screen.scenario.settle()
    let stopped = listener.allFinished
    let nothingRunning = screen.socket.running.isEmpty
    let nothingOutlivedA = stopped && nothingRunning

    #expect(
      nothingOutlivedA,
      screen.scenario.explain(
        """
        Caller A listened to the ticks, got tick #1, and then its task was cancelled. A's loop \
        \(stopped ? "ended" : "did not end"), and \(screen.state(of: 1)). The stream knew that \
        its listener had gone; the task that connected to the socket is a task of its own, and \
        nobody told it.
        """,
        correctly: "connection #1 is closed from the listener's side, and connect returns."))
    screen.socket.closeAll()
  }

  @Test("A listener cancelled before its connection opens leaves nothing open")
  func listenerCancelledAtOnceLeavesNothingOpen() async throws {
    let screen = Screen()
    let quote = screen.quote()
    let listener = screen.listen(to: quote)
    listener.cancel()
    try await screen.scenario.settle()
    let stopped = listener.allFinished
    let nothingRunning = screen.socket.running.isEmpty
    let nothingOutlivedA = stopped && nothingRunning

    #expect(
      nothingOutlivedA,
      screen.scenario.explain(
        """
        Caller A's task was cancelled before it began, so A asked for the ticks already \
        cancelled, before any connection had opened. A's loop \
        \(stopped ? "ended" : "did not end"), and \(screen.state(of: 1)). The connection was \
        opened for a listener that had already gone.
        """,
        correctly: "any connection opened for A is closed, and connect returns."))
    screen.socket.closeAll()
  }

  @Test("A listener that leaves its loop closes its connection")
  func listenerThatLeavesClosesItsConnection() async throws {
    let screen = Screen()
    let quote = screen.quote()
    let listener = screen.scenario.start(1, "first tick of ticks()") { () -> Tick? in
      for await tick in quote.ticks() {
        return tick
      }
      return nil
    }
    try await screen.scenario.settle()
    screen.socket.sendNext()
    try await screen.scenario.settle()
    let returned = listener.allFinished
    let nothingRunning = screen.socket.running.isEmpty
    let nothingOutlivedA = returned && nothingRunning

    #expect(
      nothingOutlivedA,
      screen.scenario.explain(
        """
        Caller A took the first tick and left its loop, and with it the stream. A \
        \(returned ? "returned" : "had not returned"), and \(screen.state(of: 1)).
        """,
        correctly: "once A has let the stream go, connection #1 is closed and connect returns."))
    screen.socket.closeAll()
  }

  @Test("Letting the quote go closes its socket and ends its watching", arguments: [true, false])
  func releasedQuoteStopsWatching(afterATick: Bool) async throws {
    let screen = Screen()
    var quote: LiveQuote? = screen.quote()
    weak let released = quote
    _ = try await screen.scenario.call("start()") { [weak quote] in await quote?.start() }
    try await screen.scenario.settle()
    if afterATick {
      screen.socket.sendNext()
      try await screen.scenario.settle()
    }
    let shown = try await screen.scenario.call("latest") { [weak quote] in await quote?.latest }
    screen.scenario.note("lets the quote go: the screen has closed")
    quote = nil
    try await screen.scenario.settle()
    let gone = released == nil
    let nothingRunning = screen.socket.running.isEmpty
    let nothingOutlivedTheQuote = gone && nothingRunning

    #expect(
      nothingOutlivedTheQuote,
      screen.scenario.explain(
        """
        The screen started the quote, the quote showed \(shown.map(describe) ?? "no tick"), and \
        then the screen let the quote go: the test held the only reference of its own. \
        Afterwards the quote \
        \(gone ? "was gone" : "was still alive, so its deinit had not run"), and \
        \(screen.state(of: 1)). Something still held the quote, or still ran for it.
        """,
        correctly: "the quote is freed, its watching ends, and connection #1 is closed."))
    screen.socket.closeAll()
  }
}

@Suite("Chapter 13: what the quote must keep doing", .testScheduler)
struct LiveQuoteGuardTests {
  @Test(
    "Every tick reaches the listener, in order, also in a burst",
    arguments: [Burst(ticks: 5003, newestFirst: false), Burst(ticks: 20, newestFirst: true)])
  func everyTickArrivesInOrder(burst: Burst) async throws {
    let screen = Screen()
    if burst.newestFirst { screen.scenario.runsReadyTasksNewestFirst() }
    let quote = screen.quote()
    let listener = screen.listen(to: quote)
    try await screen.scenario.settle()
    // A burst of ticks, all sent before the listener can take the first: a busy market does that.
    for _ in 1...burst.ticks {
      screen.socket.sendNext()
    }
    screen.socket.closeAll()
    let received = try await listener.results()[0].value?.sequences ?? []

    let missing = Array(Set(1...burst.ticks).subtracting(received)).sorted()
    let everyTickInOrder = received == Array(1...burst.ticks)
    #expect(
      everyTickInOrder,
      """
      The socket sent ticks 1 to \(burst.ticks) before the listener could take the first, and the \
      listener received \(received.count) of them\
      \(missing.isEmpty ? "" : ", without \(missing.count == 1 ? "tick" : "ticks") \(ranges(missing))")\
      \(received == received.sorted() ? "" : ", out of order")\
      \(burst.newestFirst ? " (whenever tasks were ready at once, the newest ran first, an order the runtime may choose)" : ""). \
      Expected: every tick, in the order the socket sent them.
      """
    )
  }

  @Test("A connection the exchange closes ends the listener's loop")
  func closedConnectionEndsTheLoop() async throws {
    let screen = Screen()
    let quote = screen.quote()
    let listener = screen.listen(to: quote)
    try await screen.scenario.settle()
    screen.socket.sendNext()
    screen.socket.closeAll()
    let ended = await screen.scenario.wait { listener.allFinished }

    #expect(
      ended,
      screen.scenario.explain(
        "The exchange closed connection #1, but caller A's loop did not end: it waits for ticks that will never come.",
        correctly: "A's loop ends once it has received tick #1."))
  }

  @Test("Stopping one listener leaves another listening")
  func stoppingOneListenerSparesTheOther() async throws {
    let screen = Screen()
    let quote = screen.quote()
    let first = screen.listen(to: quote)
    let second = screen.listen(to: quote)
    try await screen.scenario.settle()
    first.cancel()
    try await screen.scenario.settle()
    screen.socket.sendNext()
    try await screen.scenario.settle()
    screen.socket.closeAll()
    let received =
      await screen.scenario.wait { second.allFinished } ? try second.results()[0].value : nil

    #expect(
      received?.sequences == [1],
      screen.scenario.explain(
        """
        Callers A and B each listened on a connection of their own, and A's task was cancelled. \
        The socket then sent tick #1, and B received \
        \(received.map(describe) ?? "nothing: its loop never ended").
        """,
        correctly: "A's connection closes, B's stays open, and B receives tick #1."))
  }

  @Test("start() returns at once, and the quote then shows the newest tick")
  func startedQuoteShowsTheNewestTick() async throws {
    let screen = Screen()
    // Tasks created one after another may start in either order; here the newest starts first.
    screen.scenario.runsReadyTasksNewestFirst()
    let quote = screen.quote()
    _ = try await screen.scenario.call("start()") { await quote.start() }
    try await screen.scenario.settle()
    screen.socket.sendNext()
    screen.socket.sendNext()
    try await screen.scenario.settle()
    let latest = try await screen.scenario.call("latest") { await quote.latest }

    #expect(
      latest == screen.socket.tick(2),
      screen.scenario.explain(
        """
        The socket sent ticks 1 and 2 after start(), and the quote shows \
        \(latest.map(describe) ?? "nothing"). In this run, whenever tasks were ready at once, the \
        newest ran first, an order the runtime may choose.
        """,
        correctly: "the quote shows tick #2 ($100.02)."))
    screen.socket.closeAll()
  }
}

/// A burst of ticks for a listener: many, more than a stream that keeps only the newest 1024,
/// 4096 or 5000 holds; or a few, where whenever tasks are ready at once the newest runs first, an
/// order the runtime may choose.
struct Burst: CustomTestStringConvertible, Sendable {
  let ticks: Int
  let newestFirst: Bool

  var testDescription: String {
    newestFirst ? "\(ticks) ticks, the newest ready task first" : "\(ticks) ticks"
  }
}

/// `3`, `3 and 5`, `37 to 100`, `3, 5 and 37 to 100`: sorted numbers, runs of them joined.
private func ranges(_ numbers: [Int]) -> String {
  var runs: [ClosedRange<Int>] = []
  for number in numbers {
    if let last = runs.last, last.upperBound + 1 == number {
      runs[runs.count - 1] = last.lowerBound...number
    } else {
      runs.append(number...number)
    }
  }
  let each = runs.map {
    $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound) to \($0.upperBound)"
  }
  return each.count == 1 ? each[0] : each.dropLast().joined(separator: ", ") + " and " + each.last!
}
