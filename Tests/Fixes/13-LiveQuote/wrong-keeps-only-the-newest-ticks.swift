// Expected to fail: Every tick reaches the listener, in order, also in a burst
// Keeps only the newest 64 ticks for a listener that falls behind, so a burst loses ticks the
// listener was promised.
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
    let (stream, continuation) = AsyncStream.makeStream(
      of: Tick.self, bufferingPolicy: .bufferingNewest(64))
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
    let stream = ticks()
    watching = Task { [weak self] in
      for await tick in stream {
        guard let self else { return }
        await self.show(tick)
      }
    }
  }
}
