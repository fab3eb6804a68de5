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
    // The socket's thread only queues each message; one loop applies them, one after the other,
    // in the order they arrived. The loop ends when the socket closes and the queue runs dry.
    let (messages, inbox) = AsyncStream.makeStream(of: FeedMessage.self)
    async let connection: Void = receive(into: inbox)
    for await message in messages {
      await apply(message)
    }
    await connection
  }

  private nonisolated func receive(into inbox: AsyncStream<FeedMessage>.Continuation) async {
    await socket.connect { message in
      inbox.yield(message)
    }
    inbox.finish()
  }

  private func apply(_ message: FeedMessage) async {
    await journal.append(message)
    prices[message.symbol] = message.price
    lastSequence = message.sequence
  }
}
