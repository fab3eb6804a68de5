/// Hands out connections to the database, opening at most `limit` of them: the database allows
/// each client only so many.
///
/// A caller that finds no idle connection opens a new one, unless the pool has opened all it
/// may; then it throws ``PoolExhausted``. A caller gives its connection back with
/// ``release(_:)``, and the next caller takes it.
public actor ConnectionPool {
  private let connector: any Connector
  private let limit: Int
  private var idle: [Connection] = []
  private var opened = 0

  public init(connector: any Connector, limit: Int) {
    self.connector = connector
    self.limit = limit
  }

  public func acquire() async throws -> Connection {
    if let connection = idle.popLast() {
      return connection
    }
    guard opened < limit else {
      throw PoolExhausted(limit: limit)
    }
    #if CONNECTION_POOL_FIXED
      // Count the connection before the await, so that a caller who comes in while it opens sees
      // that it is on its way; give the place back if it fails to open.
      opened += 1
      do {
        return try await connector.connect()
      } catch {
        opened -= 1
        throw error
      }
    #else
      let connection = try await connector.connect()
      opened += 1
      return connection
    #endif
  }

  public func release(_ connection: Connection) {
    idle.append(connection)
  }
}
