import Foundation

/// What the app shows of a user: a name beside each message, and who wrote it.
public struct Profile: Hashable, Sendable, CustomStringConvertible {
  public let id: String
  public let name: String

  public init(id: String, name: String) {
    self.id = id
    self.name = name
  }

  public var description: String { "\(id)'s profile (\(name))" }
}

/// The server's directory of users.
public protocol UserDirectory: Sendable {
  /// Fetches user `id`'s profile as the server has it now. Throws a network error, and then
  /// fetches nothing.
  func profile(of id: String) async throws -> Profile
}

/// Where the app keeps profiles between launches, on the device's disk.
public protocol ProfileDisk: Sendable {
  /// Replaces what the disk holds with `profiles`, by user id. Throws when the disk is full, and
  /// then keeps what it held.
  func save(_ profiles: [String: Profile]) async throws
}

/// The time of day, as the app reads it.
public protocol WallClock: Sendable {
  var now: Date { get }
}
