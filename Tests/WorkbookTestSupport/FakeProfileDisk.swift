import ScheduleExplorer
import Services

/// A ``ProfileDisk`` whose saves wait until the test lets them finish, and that keeps what the
/// last save that finished wrote. Released with the outcome `full`, a save fails and keeps what the
/// disk held.
///
/// What ``ProfileDisk`` documents, and how this fake does it:
/// - "Where the app keeps profiles between launches": one disk, in memory, for the test.
/// - "Replaces what the disk holds with `profiles`": the outcome `saved`.
/// - "Throws when the disk is full": the outcome `full`, a ``FakeDiskFullError``; the disk keeps
///   what it held.
public final class FakeProfileDisk: ProfileDisk, FakeService {
  public let requests: Requests
  private let saved = Locked<[String: Profile]>([:])

  public init(_ scenario: Scenario) {
    requests = Requests(noun: "save", outcomes: ["saved", "full"], scenario: scenario)
  }

  /// What the disk holds now, by user id.
  public var profiles: [String: Profile] { saved.value }

  public func save(_ profiles: [String: Profile]) async throws {
    let ids = profiles.keys.sorted()
    try await requests.perform(for: ids.isEmpty ? "nothing" : ids.joined(separator: ", ")) {
      number, outcome in
      if outcome == "full" { throw FakeDiskFullError(save: number) }
      self.saved.withLock { $0 = profiles }
      return ((), "writes \(ids.count == 1 ? "1 profile" : "\(ids.count) profiles")")
    }
  }
}

/// The error of a save to a disk with no room left.
public struct FakeDiskFullError: Error, Equatable, CustomStringConvertible {
  /// The number of the save that failed.
  public let save: Int

  public var description: String { "the disk is full" }
}
