// Makes self strong again inside the loop, one tick at a time: between two ticks the task holds
// only a weak reference, so the screen can let the quote go, and deinit cancels the task. The
// stream is the build-closure kind; its termination handler closes the connection all the same.
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
    AsyncStream { [socket, symbol] continuation in
      let connection = Task {
        await socket.connect(to: symbol) { tick in
          continuation.yield(tick)
        }
        continuation.finish()
      }
      continuation.onTermination = { _ in
        connection.cancel()
      }
    }
  }

  public func start() {
    let ticks = ticks()
    watching = Task { [weak self] in
      for await tick in ticks {
        guard let self else { return }
        await self.show(tick)
      }
    }
  }

  private func show(_ tick: Tick) {
    latest = tick
  }
}
