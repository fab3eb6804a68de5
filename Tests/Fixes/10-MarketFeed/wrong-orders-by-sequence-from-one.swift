// Expected to fail: Every message is written once and its price applied
// Hands each message to a Task, and puts them back in order by their numbers: it applies the
// message numbered one more than the last, so it waits for a #1 that a real exchange never sends.
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

  /// Messages that arrived ahead of their turn, by sequence number.
  private var pending: [Int: FeedMessage] = [:]
  private var draining = false
  private var waitingForDrain: [CheckedContinuation<Void, Never>] = []

  public init(socket: any FeedSocket, journal: any FeedJournal) {
    self.socket = socket
    self.journal = journal
  }

  /// Receives and applies messages until the socket closes.
  public func run() async {
    await socket.connect { message in
      Task { await self.receive(message) }
    }
    // Let every hop that is still on its way arrive, then wait for the queue to empty.
    await Task.yield()
    while draining || !pending.isEmpty {
      await withCheckedContinuation { waitingForDrain.append($0) }
    }
  }

  /// The exchange numbers its messages, so the actor puts them back in that order itself,
  /// whatever order the hops arrive in.
  private func receive(_ message: FeedMessage) async {
    pending[message.sequence] = message
    guard !draining else { return }
    draining = true
    while let message = pending.removeValue(forKey: lastSequence + 1) {
      await journal.append(message)
      prices[message.symbol] = message.price
      lastSequence = message.sequence
    }
    draining = false
    let waiting = waitingForDrain
    waitingForDrain = []
    for continuation in waiting { continuation.resume() }
  }
}
