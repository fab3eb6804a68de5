/// Opens connections to the database: the world outside the pool.
///
/// A connection takes a while to open, and opening one can fail, for example when the database
/// refuses more clients.
public protocol Connector: Sendable {
  func connect() async throws -> Connection
}

/// An open connection to the database.
public struct Connection: Hashable, Sendable {
  /// Tells one connection from another.
  public let id: Int

  public init(id: Int) {
    self.id = id
  }
}

/// Thrown by ``ConnectionPool/acquire()`` when every connection the pool may open is in use.
public struct PoolExhausted: Error, Equatable {
  /// How many connections the pool may open.
  public let limit: Int
}
