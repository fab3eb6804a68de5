// Expected to fail: A message is applied right after its write, before the feed steps away
// Reads the socket through one stream, in order, but formats an audit line off the actor between
// a message's write and its apply: while it is away, the journal is ahead of the prices.
import Services

@concurrent func auditLine(for message: FeedMessage) async -> String {
  "#\(message.sequence) \(message.symbol) \(message.price)"
}

public actor MarketFeed {
  public private(set) var prices: [String: Int] = [:]
  public private(set) var lastSequence = 0
  private(set) var audit: [String] = []
  private let socket: any FeedSocket
  private let journal: any FeedJournal

  public init(socket: any FeedSocket, journal: any FeedJournal) {
    self.socket = socket
    self.journal = journal
  }

  public func run() async {
    let (messages, inbox) = AsyncStream.makeStream(of: FeedMessage.self)
    let socket = self.socket
    async let connection: Void = {
      await socket.connect { inbox.yield($0) }
      inbox.finish()
    }()
    for await message in messages {
      await journal.append(message)
      audit.append(await auditLine(for: message))
      prices[message.symbol] = message.price
      lastSequence = message.sequence
    }
    await connection
  }
}
