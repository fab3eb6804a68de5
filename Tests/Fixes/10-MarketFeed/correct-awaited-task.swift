// One consumer loop in a `Task {}`, which run() awaits before it returns: unstructured, but still
// one consumer, in order, and nothing left running once run() is over.
import Services

public actor MarketFeed {
  public private(set) var prices: [String: Int] = [:]
  public private(set) var lastSequence = 0
  private let socket: any FeedSocket
  private let journal: any FeedJournal

  public init(socket: any FeedSocket, journal: any FeedJournal) {
    self.socket = socket
    self.journal = journal
  }

  public func run() async {
    let (messages, inbox) = AsyncStream.makeStream(of: FeedMessage.self)
    let consumer = Task {
      for await message in messages {
        await apply(message)
      }
    }
    await socket.connect { inbox.yield($0) }
    inbox.finish()
    await consumer.value
  }

  private func apply(_ message: FeedMessage) async {
    await journal.append(message)
    prices[message.symbol] = message.price
    lastSequence = message.sequence
  }
}
