import ScheduleExplorer
import Services
import Testing

/// A ``TickerSocket`` whose exchange sends the ticks the test hands it, to every open connection,
/// and closes connections when the test says; a connection whose task is cancelled is closed from
/// the listener's side, as the real socket promises.
///
/// What ``TickerSocket`` documents, and how this fake does it:
/// - "A live connection to the exchange's ticker": one ``Connection`` for each `connect`.
/// - "Opens a connection for `symbol`": ``sendNext()`` sends each tick, in order, to every open
///   connection, on the scheduler's thread, inside the test's own step, rather than on a thread
///   of the socket's own.
/// - "Returns once it has closed": ``closeAll()`` closes every connection from the exchange's
///   side, and cancelling the task that called `connect` closes its connection from this side.
public final class FakeTickerSocket: TickerSocket {
  /// One connection, as the socket saw it.
  public struct Connection: Sendable {
    /// Counting from 1, in the order they opened.
    public let number: Int
    /// The caller whose work opened it.
    public let caller: String?
    /// Whether it has closed, from either side.
    public internal(set) var isClosed = false
    /// Whether `connect` has returned: nothing of the connection is left running.
    public internal(set) var hasReturned = false
    /// The ticks delivered on it, by sequence number.
    public internal(set) var delivered: [Int] = []
  }

  private struct State {
    var connections: [Connection] = []
    var onTick: [Int: @Sendable (Tick) -> Void] = [:]
    var waiting: [Int: CheckedContinuation<Void, Never>] = [:]
    var ticks = 0
  }

  public let symbol: String
  private let scenario: Scenario
  private let state = Locked(State())

  public init(_ scenario: Scenario, symbol: String = "ACME") {
    self.scenario = scenario
    self.symbol = symbol
  }

  /// Every connection so far, in the order they opened.
  public var connections: [Connection] { state.value.connections }

  /// The connections still open.
  public var open: [Connection] { connections.filter { !$0.isClosed } }

  /// The connections whose `connect` has not returned: closed or not, something of them still
  /// runs.
  public var running: [Connection] { connections.filter { !$0.hasReturned } }

  /// How many ticks the exchange has sent.
  public var ticksSent: Int { state.value.ticks }

  /// Tick number `sequence`: the symbol at $100.00 plus `sequence` cents.
  public func tick(_ sequence: Int) -> Tick {
    Tick(sequence: sequence, symbol: symbol, price: 10_000 + sequence)
  }

  /// Sends the next tick to every open connection, the way a socket does: a synchronous call on
  /// the socket's thread, which does not wait for anyone to take it.
  public func sendNext() {
    let (sequence, receivers) = state.withLock { state in
      state.ticks += 1
      let open = state.connections.indices.filter { !state.connections[$0].isClosed }
      for index in open {
        state.connections[index].delivered.append(state.ticks)
      }
      return (state.ticks, open.compactMap { state.onTick[state.connections[$0].number] })
    }
    let next = tick(sequence)
    CurrentCaller.withName("socket") {
      scenario.recordObservation("sends \(describe(next))", by: "socket")
      scenario.step {
        for onTick in receivers {
          onTick(next)
        }
      }
    }
  }

  /// The exchange closes every open connection: each `connect` returns.
  public func closeAll() {
    scenario.recordTestStep("has the exchange close every connection")
    for connection in open {
      close(connection.number, by: "the exchange")
    }
  }

  public func connect(to symbol: String, onTick: @escaping @Sendable (Tick) -> Void) async {
    let number = state.withLock { state in
      state.connections.append(
        Connection(number: state.connections.count + 1, caller: CurrentCaller.name))
      state.onTick[state.connections.count] = onTick
      return state.connections.count
    }
    scenario.recordObservation("connection #\(number) to \(symbol) opens")
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let closed = state.withLock { state in
          if !state.connections[number - 1].isClosed { state.waiting[number] = continuation }
          return state.connections[number - 1].isClosed
        }
        if closed { continuation.resume() }
        scenario.checkWaiters()
      }
    } onCancel: {
      close(number, by: "the listener's side")
    }
    state.withLock { $0.connections[number - 1].hasReturned = true }
    scenario.recordObservation("connect returns for connection #\(number)")
  }

  private func close(_ number: Int, by side: String) {
    let closing = state.withLock { state -> (String?, CheckedContinuation<Void, Never>?)? in
      guard !state.connections[number - 1].isClosed else { return nil }
      state.connections[number - 1].isClosed = true
      state.onTick[number] = nil
      return (state.connections[number - 1].caller, state.waiting.removeValue(forKey: number))
    }
    guard let (caller, waiting) = closing else { return }
    scenario.recordObservation("connection #\(number) is closed by \(side)", by: caller)
    scenario.step { waiting?.resume() }
  }
}

extension Tick: CustomTestStringConvertible {
  /// `tick #2 ($100.02)`.
  public var testDescription: String {
    "tick #\(sequence) (\(dollars(price)))"
  }
}

extension Scenario {
  /// Records a step the test takes in the timeline, such as letting an object go.
  public func note(_ step: String) {
    recordTestStep(step)
  }
}
