// Expected to fail: start() returns at once, and the quote then shows the newest tick
// Hands each tick to the actor in a Task of its own; the tasks may start in any order, so the quote
// can end up showing an older tick.
import Services

public actor LiveQuote {
  public let symbol: String
  public private(set) var latest: Tick?
  private let socket: any TickerSocket
  private var watching: Task<Void, Never>?

  public init(symbol: String, socket: any TickerSocket) {
    self.symbol = symbol
    self.socket = socket
  }

  deinit {
    watching?.cancel()
  }

  public nonisolated func ticks() -> AsyncStream<Tick> {
    let (stream, continuation) = AsyncStream.makeStream(of: Tick.self)
    let task = Task { [socket, symbol] in
      await socket.connect(to: symbol) { tick in
        continuation.yield(tick)
      }
      continuation.finish()
    }
    continuation.onTermination = { _ in task.cancel() }
    return stream
  }

  private func show(_ tick: Tick) { latest = tick }

  public func start() {
    watching?.cancel()
    watching = Task { [weak self, socket, symbol] in
      weak let quote = self
      await socket.connect(to: symbol) { tick in
        Task { [quote] in await quote?.show(tick) }
      }
    }
  }
}
