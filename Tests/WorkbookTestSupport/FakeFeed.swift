import ScheduleExplorer
import Services

/// A ``FeedSocket`` that delivers the messages the test hands it, and closes when the test says.
///
/// What ``FeedSocket`` documents, and how this fake does it:
/// - "A live connection that pushes messages": ``deliverNext()``, at whatever moment the test or
///   the explorer chooses, also while the feed is still applying earlier messages.
/// - "Opens the connection and calls `onMessage`": every message, in order, on the scheduler's
///   thread rather than one of its own (``ThreadedFeedSocket`` calls from one). The messages are
///   numbered as ``FeedMessage`` says an exchange numbers them: the first a connection delivers
///   is not #1, and the numbers skip (``sequence(ofMessage:)``: #101, #103, #105, …).
/// - "Returns when the connection closes": ``close()``.
public final class FakeFeedSocket: FeedSocket {
  private struct State {
    var onMessage: (@Sendable (FeedMessage) -> Void)?
    var closed: CheckedContinuation<Void, Never>?
    var isClosed = false
    var delivered = 0
  }

  private let scenario: Scenario
  private let state = Locked(State())

  public init(_ scenario: Scenario) {
    self.scenario = scenario
  }

  /// Whether a feed has connected and the connection is still open.
  public var isConnected: Bool {
    state.withLock { $0.onMessage != nil && !$0.isClosed }
  }

  /// Whether the test has closed the connection.
  public var isClosed: Bool { state.value.isClosed }

  /// How many messages the socket has delivered.
  public var delivered: Int { state.value.delivered }

  /// Delivers the next message, ``message(_:)``, the way a socket does: a synchronous call on the
  /// socket's thread, which does not wait for the feed to apply it.
  public func deliverNext() {
    let (onMessage, message) = state.withLock { state in
      state.delivered += 1
      return (state.onMessage, Self.message(state.delivered))
    }
    CurrentCaller.withName("socket") {
      scenario.recordObservation("delivers message #\(message.sequence)", by: "socket")
      scenario.step { onMessage?(message) }
    }
  }

  /// Closes the connection: `connect(onMessage:)` returns.
  public func close() {
    scenario.recordTestStep("closes the socket")
    let closed = state.withLock { state in
      state.isClosed = true
      defer { state.closed = nil }
      return state.closed
    }
    scenario.step { closed?.resume() }
  }

  public func connect(onMessage: @escaping @Sendable (FeedMessage) -> Void) async {
    scenario.recordObservation("connects to the socket")
    await withCheckedContinuation { continuation in
      let alreadyClosed = state.withLock { state in
        state.onMessage = onMessage
        if !state.isClosed { state.closed = continuation }
        return state.isClosed
      }
      if alreadyClosed { continuation.resume() }
      scenario.checkWaiters()
    }
    scenario.recordObservation("sees the connection close")
  }

  /// The `n`-th message a connection delivers, counting from 1: ACME at $100 plus `n` cents,
  /// numbered ``sequence(ofMessage:)``.
  public static func message(_ n: Int) -> FeedMessage {
    FeedMessage(sequence: sequence(ofMessage: n), symbol: "ACME", price: 10_000 + n)
  }

  /// The exchange's number on the `n`-th message a connection delivers, counting from 1: #101,
  /// #103, #105, …. The exchange numbers everything it publishes, so a connection's first
  /// message is not #1, and the connection sees only every other number. Both fakes of
  /// ``FeedSocket`` number their messages this way.
  public static func sequence(ofMessage n: Int) -> Int {
    100 + 2 * n - 1
  }

  /// Which message a connection delivers as its `n`-th, counting from 1, carries `sequence`, among
  /// the first `count`; nil if none of them does.
  public static func position(ofSequence sequence: Int, amongFirst count: Int) -> Int? {
    count < 1 ? nil : (1...count).first { self.sequence(ofMessage: $0) == sequence }
  }
}

/// A ``FeedJournal`` whose appends wait until the test lets them finish, and that remembers the
/// order in which messages were written.
///
/// What ``FeedJournal`` documents, and how this fake does it:
/// - "Durable storage that every message is written to": the outcome `write`; appends finish
///   when the test lets them, in any order, and ``writtenSequence`` keeps the order they did.
public final class FakeFeedJournal: FeedJournal, FakeService {
  public let requests: Requests
  private let written = Locked<[Int]>([])

  public init(_ scenario: Scenario) {
    requests = Requests(noun: "append", preposition: "of", outcomes: ["write"], scenario: scenario)
  }

  /// The sequence numbers of the messages written, in the order they were written.
  public var writtenSequence: [Int] { written.value }

  /// Of the appends waiting for the test, the one whose message is the newest.
  public var waitingAppendOfNewestMessage: Int? {
    requests.waiting.max { sequence(of: $0) < sequence(of: $1) }
  }

  private func sequence(of append: Int) -> Int {
    requests.key(of: append).flatMap { Int($0.dropFirst(Self.keyPrefix.count)) } ?? 0
  }

  private static let keyPrefix = "message #"

  public func append(_ message: FeedMessage) async {
    _ = try? await requests.perform(for: "\(Self.keyPrefix)\(message.sequence)") { _, _ in
      self.written.withLock { $0.append(message.sequence) }
      return ((), "writes message #\(message.sequence)")
    }
  }
}
