// Expected to fail: Messages delivered just before the socket closes are written in the order they arrived
// Queues each message behind a lock and starts one drain task for the queue from a task of its
// own; run() drains whatever is left itself once the socket closes. But run() does not mark its
// drain as the running one: a task that starts late, after the close, starts a second drain
// beside it, and the two write at the same time.
import Services
import Synchronization

public actor MarketFeed {
  public private(set) var prices: [String: Int] = [:]
  public private(set) var lastSequence = 0
  private let socket: any FeedSocket
  private let journal: any FeedJournal
  private let inbox = Mutex<[FeedMessage]>([])
  private var drain: Task<Void, Never>?

  public init(socket: any FeedSocket, journal: any FeedJournal) {
    self.socket = socket
    self.journal = journal
  }

  public func run() async {
    await socket.connect { message in
      self.inbox.withLock { $0.append(message) }
      Task { await self.startDraining() }
    }
    await drain?.value
    // A message whose task has not started yet is still in the queue: apply it before returning.
    await applyQueued()
    await drain?.value
  }

  private func startDraining() {
    guard drain == nil else { return }
    drain = Task {
      await applyQueued()
      drain = nil
    }
  }

  private func applyQueued() async {
    while let message = inbox.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
      await journal.append(message)
      prices[message.symbol] = message.price
      lastSequence = message.sequence
    }
  }
}
