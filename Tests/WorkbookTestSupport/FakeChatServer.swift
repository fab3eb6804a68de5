import ScheduleExplorer
import Services

/// A ``ChatServer`` whose connects and sends wait until the test lets them finish, and whose
/// network drops the open connection when the test says.
///
/// Each connect that succeeds opens the next connection, `connection #1`, `#2`, …, and closes the
/// one open before it, as the real server does, since it keeps one connection per device. A send is answered when the
/// test releases it: the message arrives if its connection is still open then, and the send throws
/// ``ChatError/connectionClosed(_:)`` if it is not.
///
/// ``connects`` and ``sends`` are the two logs of requests: `server.sends.release(3)` lets send #3
/// finish, `server.connects.release(2, as: "error")` fails connect #2. ``open()`` lets everything
/// through.
///
/// What ``ChatServer`` documents, and how this fake does it:
/// - "The chat server, as a device talks to it": one server, for the one device under test.
/// - "The server keeps one connection per device": a connect that opens closes the connection
///   open before it, and a send still on its way over that one fails when the test lets it finish.
/// - "A connection can also close at any moment on its own": ``dropConnection()``, at the moment
///   a test calls it.
/// - "Opens a connection for this device": the outcome `opens`, the next connection.
/// - "Throws a network error, opening nothing and closing nothing": the outcome `error`, a
///   ``FakeNetworkError``.
/// - "Sends `message` on `connection`": the outcome `answered`; the message arrives if its
///   connection is still open then.
/// - "Throws ``ChatError/connectionClosed(_:)``": the outcome `answered` on a connection that
///   closed, or was dropped, while the send was on its way.
public final class FakeChatServer: ChatServer, FakeService {
  private struct State {
    var open: Connection?
    var opened = 0
    var delivered: [String] = []
  }

  /// Every connect, in the order they started: each `opens` a connection (the default) or fails
  /// with an `error`, as when the server cannot be reached.
  public let connects: Requests
  /// Every send, in the order they started, keyed by its message.
  public let sends: Requests
  private let scenario: Scenario
  private let state = Locked(State())

  public init(_ scenario: Scenario) {
    self.scenario = scenario
    connects = Requests(noun: "connect", outcomes: ["opens", "error"], scenario: scenario)
    sends = Requests(noun: "send", outcomes: ["answered"], scenario: scenario)
  }

  /// The sends: ``FakeService``'s `release(_:)` and `wasCancelled(_:)` speak of them. An
  /// exploration that lists this fake answers its sends only; to have it answer the connects
  /// too, list both logs: `[RequestLog(server.connects), RequestLog(server.sends)]`.
  public var requests: Requests { sends }

  /// Lets every waiting connect and send finish, and every later one finish at once.
  public func open() {
    connects.open()
    sends.open()
  }

  /// Undoes ``open()``: connects and sends that start from now on wait for the test again.
  public func close() {
    connects.close()
    sends.close()
  }

  /// How many connections the server has opened for this device.
  public var connectionsOpened: Int { state.value.opened }

  /// The connection open now, if any.
  public var openConnection: Connection? { state.value.open }

  /// The messages that arrived, in the order the server got them.
  public var delivered: [String] { state.value.delivered }

  /// The network drops the open connection: every send still on its way over it fails when the
  /// test lets it finish.
  public func dropConnection() {
    guard
      let dropped = state.withLock({ state in
        defer { state.open = nil }
        return state.open
      })
    else { return }
    scenario.note("has the network drop \(dropped)")
  }

  public func connect() async throws -> Connection {
    try await connects.perform(for: "the chat server") { number, outcome in
      if outcome == "error" { throw FakeNetworkError(request: number) }
      let (opened, closed) = self.state.withLock { state in
        let closed = state.open
        state.opened += 1
        state.open = Connection(number: state.opened)
        return (state.open!, closed)
      }
      return (opened, "opens \(opened)" + (closed.map { " and closes \($0)" } ?? ""))
    }
  }

  public func send(_ message: String, on connection: Connection) async throws {
    try await sends.perform(for: "\"\(message)\" on \(connection)") { _, _ in
      let arrived = self.state.withLock { state in
        guard state.open == connection else { return false }
        state.delivered.append(message)
        return true
      }
      guard arrived else { throw ChatError.connectionClosed(connection) }
      return ((), "arrives")
    }
  }
}

/// What each caller of `send` saw, as a message says it: `B's message went out, C's failed:
/// connection #2 is closed`.
public func describe(sent results: [CallerResult<Void>]) -> String {
  results.map { result in
    result.error.map { "\(result.caller)'s failed: \(describe($0))" }
      ?? "\(result.caller)'s went out"
  }.joined(separator: ", ")
}
