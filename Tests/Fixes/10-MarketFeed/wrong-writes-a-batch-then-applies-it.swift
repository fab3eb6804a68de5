// Expected to fail: Three messages, in every order and with one hold at most, are applied once and in order
// Takes every message that has arrived as one batch, writes the whole batch, then applies it, so
// that the journal is ahead of the screen only for a moment. While the second message of a batch
// is being written, the first is written and not applied: a reader sees prices older than the
// journal.
import Services
import Synchronization

/// The messages the socket has delivered and the feed has not taken yet.
final class Inbox: Sendable {
  private struct State {
    var messages: [FeedMessage] = []
    var closed = false
    var waiter: CheckedContinuation<[FeedMessage], Never>?
  }

  private let state = Mutex(State())

  /// Called on the socket's thread.
  func put(_ message: FeedMessage) {
    let waiter = state.withLock { state in
      state.messages.append(message)
      return state.waiter.take()
    }
    waiter?.resume(returning: take())
  }

  func close() {
    let waiter = state.withLock { state in
      state.closed = true
      return state.waiter.take()
    }
    waiter?.resume(returning: [])
  }

  /// Every message waiting, once there is one; none once the socket has closed and all are taken.
  func batch() async -> [FeedMessage] {
    await withCheckedContinuation { continuation in
      let ready = state.withLock { state in
        if state.messages.isEmpty && !state.closed {
          state.waiter = continuation
          return false
        }
        return true
      }
      if ready { continuation.resume(returning: take()) }
    }
  }

  private func take() -> [FeedMessage] {
    state.withLock { state in
      defer { state.messages = [] }
      return state.messages
    }
  }
}

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
    while case let batch = await inbox.batch(), !batch.isEmpty {
      for message in batch {
        await journal.append(message)
      }
      for message in batch {
        prices[message.symbol] = message.price
        lastSequence = message.sequence
      }
    }
    await connection
  }

  private nonisolated func receive(into inbox: Inbox) async {
    await socket.connect { message in
      inbox.put(message)
    }
    inbox.close()
  }
}
