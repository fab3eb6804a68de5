// Expected to fail: Stopping one listener leaves another listening
// Keeps the connection's task in one place for the whole quote, so that a listener that stops can
// cancel it: but each new listener replaces the one before, and the first listener to stop closes
// the newest listener's connection, while its own stays open.
import Foundation
import Services

public actor LiveQuote {
  public let symbol: String
  public private(set) var latest: Tick?
  private let socket: any TickerSocket
  private var watching: Task<Void, Never>?
  private let connection = ConnectionSlot()

  public init(symbol: String, socket: any TickerSocket) {
    self.symbol = symbol
    self.socket = socket
  }

  deinit {
    watching?.cancel()
  }

  public nonisolated func ticks() -> AsyncStream<Tick> {
    let (stream, continuation) = AsyncStream.makeStream(of: Tick.self)
    connection.keep(
      Task { [socket, symbol] in
        await socket.connect(to: symbol) { tick in
          continuation.yield(tick)
        }
        continuation.finish()
      })
    continuation.onTermination = { [connection] _ in
      connection.cancel()
    }
    return stream
  }

  public func start() {
    let ticks = ticks()
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

/// The quote's connection task, for a stream that ends to cancel.
private final class ConnectionSlot: @unchecked Sendable {
  private let lock = NSLock()
  private var task: Task<Void, Never>?

  func keep(_ task: Task<Void, Never>) {
    lock.withLock { self.task = task }
  }

  func cancel() {
    lock.withLock { task }?.cancel()
  }
}
