// A wrong fix: after a drop, a message that failed is sent again on the connection that closed,
// and fails again.
import Services

/// Keeps the app's connection to the chat server, and sends messages over it.
///
/// The first message connects. When the network drops the connection, the message that finds out
/// reconnects and goes out again on the new connection.
public actor ConnectionManager {
  private let server: any ChatServer
  /// The connection messages go out on, once it is open.
  private var connection: Connection?
  /// The connect under way, if any. Every message that finds no connection waits for this one: the
  /// server keeps one connection per device, so a second connect would close the first.
  private var connecting: Task<Connection, any Error>?

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
      // The connection dropped; send the message once more.
      try await server.send(message, on: try await connected())
    }
  }

  private func connected() async throws -> Connection {
    if let connection {
      return connection
    }
    if let connecting {
      return try await connecting.value
    }
    let connect = Task { try await server.connect() }
    connecting = connect
    // Runs once the connect has finished, so that after a failure the next message tries again.
    defer { connecting = nil }
    let opened = try await connect.value
    connection = opened
    return opened
  }
}
