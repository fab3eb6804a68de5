/// One connection between this device and the chat server, numbered by the server from 1 in the
/// order it opened them.
public struct Connection: Hashable, Sendable, CustomStringConvertible {
  public let number: Int

  public init(number: Int) {
    self.number = number
  }

  public var description: String { "connection #\(number)" }
}

/// The chat server, as a device talks to it.
///
/// The server keeps one connection per device: opening a connection closes the one the device had
/// open before, and a message still on its way over that one fails. A connection can also close at
/// any moment on its own, when the network drops it.
public protocol ChatServer: Sendable {
  /// Opens a connection for this device, closing the device's connection before it, if it has
  /// one open. Throws a network error, opening nothing and closing nothing, when the server cannot
  /// be reached.
  func connect() async throws -> Connection

  /// Sends `message` on `connection`, and returns once the server has it. Throws
  /// ``ChatError/connectionClosed(_:)`` when `connection` closed before the server got the
  /// message, which then never arrived and can be sent again.
  func send(_ message: String, on connection: Connection) async throws
}

public enum ChatError: Error, Equatable, CustomStringConvertible {
  /// The connection closed before the server got the message: the network dropped it, or the
  /// device opened another one.
  case connectionClosed(Connection)

  public var description: String {
    switch self {
    case .connectionClosed(let connection): "\(connection) is closed"
    }
  }
}
