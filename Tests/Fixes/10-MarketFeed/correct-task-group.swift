// Applies in a child task of a discarding task group while the group's body receives: the loop
// is still structured work of run(), so it is still one consumer, in order.
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
    await withDiscardingTaskGroup { group in
      group.addTask {
        for await message in messages {
          await self.apply(message)
        }
      }
      await socket.connect { inbox.yield($0) }
      inbox.finish()
    }
  }

  private func apply(_ message: FeedMessage) async {
    await journal.append(message)
    prices[message.symbol] = message.price
    lastSequence = message.sequence
  }
}
