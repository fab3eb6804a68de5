// A wrong fix: after a drop, the messages waiting at once each open a connection of their own,
// and each new connection closes the one the message before it opened.
import Services

/// Keeps the app's connection to the chat server, and sends messages over it.
///
/// The first message connects. When the network drops the connection, the message that finds out
/// reconnects and goes out again on the new connection.
public actor ConnectionManager {
  private let server: any ChatServer
  /// The connection messages go out on, once it is open.
  private var connection: Connection?

  public init(server: any ChatServer) {
    self.server = server
  }

  /// Sends `message`, connecting first if there is no connection. If the connection drops while
  /// the message is on its way, it reconnects and sends the message once more.
  public func send(_ message: String) async throws {
    let current = try await connected()
    do {
      try await server.send(message, on: current)
    } catch ChatError.connectionClosed {
      // The connection dropped. Another message may have found that out first and opened a new
      // connection while this one's failure was on its way back: forget only the one that closed.
      if connection == current {
        connection = nil
      }
      try await server.send(message, on: try await connected())
    }
  }

  private func connected() async throws -> Connection {
    if let connection {
      return connection
    }
    let opened = try await server.connect()
    connection = opened
    return opened
  }
}
