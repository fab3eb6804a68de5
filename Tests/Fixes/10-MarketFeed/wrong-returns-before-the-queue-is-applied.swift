// Expected to fail: Three messages, in every order and with one hold at most, are applied once and in order
// One consumer loop in a `Task {}` that nobody awaits: run() returns as soon as the socket
// closes, while messages already received may still wait to be written and applied.
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
    Task {
      for await message in messages {
        await apply(message)
      }
    }
    await socket.connect { inbox.yield($0) }
    inbox.finish()
  }

  private func apply(_ message: FeedMessage) async {
    await journal.append(message)
    prices[message.symbol] = message.price
    lastSequence = message.sequence
  }
}
