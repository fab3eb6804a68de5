import Services

/// The live price of one symbol, for a quote screen. `ticks()` streams the exchange's ticks to
/// whoever listens; `start()` keeps `latest` up to date for as long as the screen keeps the quote.
public actor LiveQuote {
  public let symbol: String
  /// The newest tick the quote has seen since `start()`.
  public private(set) var latest: Tick?
  private let socket: any TickerSocket
  private var watching: Task<Void, Never>?

  public init(symbol: String, socket: any TickerSocket) {
    self.symbol = symbol
    self.socket = socket
  }

  deinit {
    // The screen has let the quote go: stop watching.
    watching?.cancel()
  }

  /// Every tick of the symbol, as it arrives, until the exchange closes the connection.
  public nonisolated func ticks() -> AsyncStream<Tick> {
    let (stream, continuation) = AsyncStream.makeStream(of: Tick.self)
    let connection = Task { [socket, symbol] in
      await socket.connect(to: symbol) { tick in
        continuation.yield(tick)
      }
      continuation.finish()
    }
    // The listener stopped (its task was cancelled, or it dropped the stream): close the
    // connection, which ends the task above.
    continuation.onTermination = { _ in
      connection.cancel()
    }
    return stream
  }

  /// Keeps `latest` up to date from now on.
  public func start() {
    let ticks = ticks()
    // The task holds the quote only while it shows a tick, never while it waits for the next:
    // so the screen can let the quote go, and `deinit` cancels the task.
    watching = Task { [weak self] in
      for await tick in ticks {
        await self?.show(tick)
      }
    }
  }

  private func show(_ tick: Tick) {
    latest = tick
  }
}
