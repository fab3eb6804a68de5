// Expected to fail: Three messages, in every order and with one hold at most, are applied once and in order
// Hands each message to a Task that puts it on a queue in the actor, which one loop drains in
// order; but the Tasks reach the actor in the order the runtime runs them, not the socket's.
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

  private var pending: [FeedMessage] = []
  private var pumping = false
  private var idle: [CheckedContinuation<Void, Never>] = []
  private var inFlight = 0

  public func run() async {
    let counter = Mutex(0)
    await socket.connect { message in
      counter.withLock { $0 += 1 }
      Task { await self.enqueue(message) }
    }
    let total = counter.withLock { $0 }
    while received < total || pumping {
      await withCheckedContinuation { idle.append($0) }
    }
  }

  private var received = 0

  private func enqueue(_ message: FeedMessage) {
    received += 1
    pending.append(message)
    if !pumping {
      pumping = true
      Task { await self.pump() }
    }
  }

  private func pump() async {
    while !pending.isEmpty {
      let message = pending.removeFirst()
      await apply(message)
    }
    pumping = false
    let waiting = idle
    idle = []
    for w in waiting { w.resume() }
  }

  private func apply(_ message: FeedMessage) async {
    await journal.append(message)
    prices[message.symbol] = message.price
    lastSequence = message.sequence
  }
}
