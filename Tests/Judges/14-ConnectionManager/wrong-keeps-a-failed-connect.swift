// A wrong fix: messages get through after a drop, until a reconnect fails once; from then on
// every message fails, though the server can be reached again.
import Services

/// Keeps the app's connection to the chat server, and sends messages over it.
public actor ConnectionManager {
  private let server: any ChatServer
  /// The connect that opened the connection messages go out on, or that will open it.
  private var connection: Task<Connection, any Error>?

  public init(server: any ChatServer) {
    self.server = server
  }

  public func send(_ message: String) async throws {
    let (connect, current) = try await connected()
    do {
      try await server.send(message, on: current)
    } catch ChatError.connectionClosed {
      if connection == connect {
        connection = nil
      }
      try await server.send(message, on: try await connected().connection)
    }
  }

  private func connected() async throws -> (
    connect: Task<Connection, any Error>, connection: Connection
  ) {
    if let connection {
      return (connection, try await connection.value)
    }
    let connect = Task { try await server.connect() }
    connection = connect
    return (connect, try await connect.value)
  }
}
