// Expected to fail: Three messages, in every order and with one hold at most, are applied once and in order
// Applies each message in a Task of its own behind a first-come, first-served lock, and waits for
// them all; the lock keeps the order the Tasks arrive in, which is not the socket's.
import Services
import Synchronization

public actor MarketFeed {
  public private(set) var prices: [String: Int] = [:]
  public private(set) var lastSequence = 0
  private let socket: any FeedSocket
  private let journal: any FeedJournal

  public init(socket: any FeedSocket, journal: any FeedJournal) {
    self.socket = socket
    self.journal = journal
  }

  private var busy = false
  private var waiters: [CheckedContinuation<Void, Never>] = []
  private var completed = 0
  private var expected = -1
  private var done: CheckedContinuation<Void, Never>?

  public func run() async {
    let created = Mutex(0)
    await socket.connect { message in
      created.withLock { $0 += 1 }
      Task { await self.apply(message) }
    }
    expected = created.withLock { $0 }
    if completed < expected { await withCheckedContinuation { done = $0 } }
  }

  private func apply(_ message: FeedMessage) async {
    if busy { await withCheckedContinuation { waiters.append($0) } }
    busy = true
    await journal.append(message)
    prices[message.symbol] = message.price
    lastSequence = message.sequence
    if waiters.isEmpty { busy = false } else { waiters.removeFirst().resume() }
    completed += 1
    if completed == expected {
      done?.resume()
      done = nil
    }
  }
}
