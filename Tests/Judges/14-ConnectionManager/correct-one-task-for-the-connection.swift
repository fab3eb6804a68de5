// A right design: the connect itself is the connection. A message forgets it only while it is the
// connect that opened the connection that closed, and a connect that failed is forgotten at once.
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
    let connect = connection ?? Task { try await server.connect() }
    connection = connect
    do {
      return (connect, try await connect.value)
    } catch {
      // Another message may have replaced a connect that failed; forget only this one.
      if connection == connect {
        connection = nil
      }
      throw error
    }
  }
}
