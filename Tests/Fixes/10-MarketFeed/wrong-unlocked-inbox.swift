// Expected to fail: Messages the socket delivers from its own thread are each written once
// Queues the messages and applies them in one loop, in order, but the queue is a plain class that
// the socket's thread and the feed both change without synchronising: on the scheduler's one
// thread that never shows, on real threads it can lose and corrupt messages.
// Caught by the Thread Sanitizer (Scripts/check-threads).
import Services

/// Keeps the latest prices from a live market-data socket. Every message is written to a journal
/// before it is applied, so that the prices can be rebuilt after a crash.
public actor MarketFeed {
  /// The latest price of each symbol, in cents.
  public private(set) var prices: [String: Int] = [:]
  /// The sequence number of the last message applied.
  public private(set) var lastSequence = 0
  private let socket: any FeedSocket
  private let journal: any FeedJournal

  public init(socket: any FeedSocket, journal: any FeedJournal) {
    self.socket = socket
    self.journal = journal
  }

  /// Receives and applies messages until the socket closes.
  public func run() async {
    let inbox = Inbox()
    async let connection: Void = receive(into: inbox)
    while true {
      if !inbox.messages.isEmpty {
        await apply(inbox.messages.removeFirst())
      } else if inbox.isClosed {
        break
      } else {
        await withCheckedContinuation { inbox.waiter = $0 }
      }
    }
    await connection
  }

  private nonisolated func receive(into inbox: Inbox) async {
    await socket.connect { message in
      inbox.messages.append(message)
      inbox.wake()
    }
    inbox.isClosed = true
    inbox.wake()
  }

  private func apply(_ message: FeedMessage) async {
    await journal.append(message)
    prices[message.symbol] = message.price
    lastSequence = message.sequence
  }
}

/// The messages the socket has delivered and the feed has not applied yet, oldest first.
private final class Inbox: @unchecked Sendable {
  var messages: [FeedMessage] = []
  var isClosed = false
  var waiter: CheckedContinuation<Void, Never>?

  func wake() {
    let waiting = waiter
    waiter = nil
    waiting?.resume()
  }
}
