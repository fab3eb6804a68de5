import ScheduleExplorer
import Services
import Synchronization

/// A ``FeedSocket`` that delivers its messages from a thread of its own, as a real socket does,
/// for tests that run a feed while that thread keeps calling it.
///
/// Unlike ``FakeFeedSocket``, whose messages arrive when the test says, on the scheduler's thread,
/// this one delivers all of its messages as fast as the thread runs, while the feed is busy
/// applying earlier ones. It keeps the protocol's promise: the messages arrive one at a time, in
/// order, on one thread, and the connection closes after the last.
///
/// What ``FeedSocket`` documents, and how this fake does it:
/// - "A live connection that pushes messages": all `count` of them, as fast as its thread runs.
/// - "Opens the connection and calls `onMessage`": from a thread of its own, one message at a
///   time, in order, while the feed is still busy with earlier ones; numbered, like
///   ``FakeFeedSocket``'s, as ``FeedMessage`` says an exchange numbers them: #101, #103, #105, ….
/// - "Returns when the connection closes": after the last message.
public final class ThreadedFeedSocket: FeedSocket {
  /// How many messages a connection delivers: ``FakeFeedSocket/message(_:)`` 1 to `count`.
  public let count: Int
  private let scenario: Scenario
  private let thread = Locked<OtherThreads?>(nil)
  private let delivered = Atomic(0)

  public init(_ scenario: Scenario, delivering count: Int) {
    self.scenario = scenario
    self.count = count
  }

  public func connect(onMessage: @escaping @Sendable (FeedMessage) -> Void) async {
    await withCheckedContinuation { (closed: CheckedContinuation<Void, Never>) in
      let socket = OtherThreads([
        { [self, scenario, count] in
          // What the callback starts is the scenario's work, so that settling waits for it.
          for n in 1...count {
            scenario.step { onMessage(FakeFeedSocket.message(n)) }
            delivered.add(1, ordering: .relaxed)
          }
          scenario.step { closed.resume() }
        }
      ])
      thread.withLock { $0 = socket }
    }
  }

  /// Whether a feed has connected, and the socket's thread has started.
  public var isConnected: Bool { thread.value != nil }

  /// Blocks the calling thread until the socket's thread has delivered `count` messages, without
  /// ordering anything after them (see ``OtherThreads/waitWithoutOrdering()``); a second at most.
  public func waitWithoutOrdering(untilDelivered count: Int) {
    spinWithoutOrdering { delivered.load(ordering: .relaxed) >= count }
  }

  /// Returns once the socket's thread has delivered every message and closed the connection.
  public func finished() async {
    await thread.value?.finished()
  }
}

/// A ``FeedJournal`` that writes each message only once the ``ThreadedFeedSocket`` it is paced by
/// has delivered the message after it, or, for a burst, writes nothing until it has delivered
/// them all.
///
/// The feed writes a message in the middle of its own work, so every delivery after the first
/// lands while the feed is busy (unless the wait gives up after a second); and since the journal
/// waits without ordering anything, what the feed does while it waits stays unordered with the
/// socket's next callback, and the Thread Sanitizer can report the state they share even in a run
/// where they did not overlap.
///
/// What ``FeedJournal`` documents, and how this fake does it:
/// - "Durable storage that every message is written to": each write waits until the socket has
///   delivered the message after it, so that appends end while the socket calls; in a burst, the
///   first write waits until the socket has delivered every message, so that all but one of them
///   wait for the feed at once.
public final class PacedFeedJournal: FeedJournal {
  private let socket: ThreadedFeedSocket
  private let isBurst: Bool
  private let written = Locked<[Int]>([])

  /// - Parameter burst: whether the first write waits for every message to be delivered.
  public init(pacedBy socket: ThreadedFeedSocket, burst: Bool = false) {
    self.socket = socket
    self.isBurst = burst
  }

  /// The sequence numbers of the messages written, in the order they were written.
  public var writtenSequence: [Int] { written.value }

  public func append(_ message: FeedMessage) async {
    let position =
      FakeFeedSocket.position(ofSequence: message.sequence, amongFirst: socket.count)
      ?? socket.count
    socket.waitWithoutOrdering(
      untilDelivered: isBurst ? socket.count : min(position + 1, socket.count))
    written.withLock { $0.append(message.sequence) }
  }
}
