import Services

/// A ``FeedSocket`` that delivers its messages from a thread of its own, as a real socket does,
/// for tests that run a feed while that thread keeps calling it.
///
/// Unlike ``FakeFeedSocket``, whose messages arrive when the test says, on the scheduler's thread,
/// this one delivers all of its messages as fast as the thread runs, while the feed is busy
/// applying earlier ones. It keeps the protocol's promise: the messages arrive one at a time, in
/// order, on one thread, and the connection closes after the last.
public final class ThreadedFeedSocket: FeedSocket {
  /// How many messages a connection delivers, numbered from 1 like ``FakeFeedSocket``'s.
  public let count: Int
  private let scenario: Scenario
  private let thread = Locked<OtherThreads?>(nil)

  public init(_ scenario: Scenario, delivering count: Int) {
    self.scenario = scenario
    self.count = count
  }

  public func connect(onMessage: @escaping @Sendable (FeedMessage) -> Void) async {
    await withCheckedContinuation { (closed: CheckedContinuation<Void, Never>) in
      let socket = OtherThreads([
        { [scenario, count] in
          // What the callback starts is the scenario's work, so that settling waits for it.
          for sequence in 1...count {
            scenario.step { onMessage(FakeFeedSocket.message(sequence)) }
          }
          scenario.step { closed.resume() }
        }
      ])
      thread.withLock { $0 = socket }
    }
  }

  /// Whether a feed has connected, and the socket's thread has started.
  public var isConnected: Bool { thread.value != nil }

  /// Returns once the socket's thread has delivered every message and closed the connection.
  public func finished() async {
    await thread.value?.finished()
  }
}
