// Expected to fail: A message delivered just before the socket closes is applied before run() returns
// Stamps each message with a ticket on the socket's thread, but run() waits only for the messages
// whose task has reached the feed when the socket closes: a message whose task starts late is
// delivered and never written before run() returns.
import Services
import Synchronization

public actor MarketFeed {
  public private(set) var prices: [String: Int] = [:]
  public private(set) var lastSequence = 0
  private let socket: any FeedSocket
  private let journal: any FeedJournal
  private var turn = 1
  private var parked: [Int: CheckedContinuation<Void, Never>] = [:]
  private var total = -1
  private var done: CheckedContinuation<Void, Never>?
  /// How many messages have reached the feed.
  private var arrived = 0

  public init(socket: any FeedSocket, journal: any FeedJournal) {
    self.socket = socket
    self.journal = journal
  }

  public func run() async {
    let tickets = Atomic(0)
    turn = 1
    await socket.connect { message in
      let ticket = tickets.add(1, ordering: .relaxed).newValue
      Task { await self.apply(message, ticket: ticket) }
    }
    // Every message that has reached the feed must be applied before run() returns.
    total = arrived
    if turn <= total { await withCheckedContinuation { done = $0 } }
  }

  private func apply(_ message: FeedMessage, ticket: Int) async {
    arrived += 1
    if ticket != turn { await withCheckedContinuation { parked[ticket] = $0 } }
    await journal.append(message)
    prices[message.symbol] = message.price
    lastSequence = message.sequence
    turn += 1
    if let next = parked.removeValue(forKey: turn) { next.resume() }
    if turn > total, total >= 0, let d = done {
      done = nil
      d.resume()
    }
  }
}
