// A right design: it forgets the expired profiles before it writes, and writes once more if
// profiles were fetched during the write, so that the disk gets them too.
import Foundation
import Services

/// Keeps the profiles of the users whose messages the app shows: each fetched once, kept for a
/// few minutes, and written to disk so that the next launch starts with names, not spinners.
public actor UserCache {
  private struct Entry {
    let profile: Profile
    let expires: Date
  }

  private let directory: any UserDirectory
  private let disk: any ProfileDisk
  private let clock: any WallClock
  /// How long a profile is kept before it is fetched again.
  private let lifetime: TimeInterval
  private var entries: [String: Entry] = [:]
  /// The fetches under way: every caller who asks for a user being fetched waits for that fetch.
  private var fetching: [String: Task<Profile, any Error>] = [:]

  public init(
    directory: any UserDirectory, disk: any ProfileDisk, clock: any WallClock,
    lifetime: TimeInterval = 300
  ) {
    self.directory = directory
    self.disk = disk
    self.clock = clock
    self.lifetime = lifetime
  }

  /// User `id`'s profile: the one kept, until it expires, or a fresh one from the directory.
  public func profile(for id: String) async throws -> Profile {
    if let entry = entries[id], entry.expires > clock.now {
      return entry.profile
    }
    if let fetch = fetching[id] {
      return try await fetch.value
    }
    let fetch = Task { try await directory.profile(of: id) }
    fetching[id] = fetch
    defer { fetching[id] = nil }
    let profile = try await fetch.value
    entries[id] = Entry(profile: profile, expires: clock.now + lifetime)
    return profile
  }

  /// Forgets the profiles that have expired, and writes the others to disk. The app calls it when
  /// it goes to the background and when memory runs low.
  public func pruneExpired() async throws {
    let now = clock.now
    entries = entries.filter { $0.value.expires > now }
    let written = entries.mapValues(\.profile)
    try await disk.save(written)
    // Profiles fetched during the write are kept, and belong on the disk too: write once more.
    let current = entries.mapValues(\.profile)
    if current != written {
      try await disk.save(current)
    }
  }

  /// The users whose profiles the cache holds now, expired or not, in order.
  public var cachedUsers: [String] {
    entries.keys.sorted()
  }
}
