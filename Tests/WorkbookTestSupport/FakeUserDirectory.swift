import Foundation
import ScheduleExplorer
import Services

/// A ``UserDirectory`` whose fetches wait until the test lets them finish.
///
/// Fetch number *n* (counting every user's fetches) of user `id` returns `id`'s profile with the
/// name `id-n`, so that what each fetch brought is told apart: `ann-1`, and `ann-3` from a later
/// fetch. Released with the outcome `error`, a fetch fails with ``FakeNetworkError``.
///
/// What ``UserDirectory`` documents, and how this fake does it:
/// - "The server's directory of users": one directory, for the test.
/// - "Fetches user `id`'s profile as the server has it now": the outcome `profile`, named after
///   the fetch that brought it.
/// - "Throws a network error, and then fetches nothing": the outcome `error`, a
///   ``FakeNetworkError``.
public final class FakeUserDirectory: UserDirectory, FakeService {
  public let requests: Requests

  public init(_ scenario: Scenario) {
    requests = Requests(noun: "fetch", outcomes: ["profile", "error"], scenario: scenario)
  }

  /// How many fetches of `id` reached the server.
  public func fetches(of id: String) -> Int { requests.started(for: id) }

  public func profile(of id: String) async throws -> Profile {
    try await requests.perform(for: id) { number, outcome in
      if outcome == "error" { throw FakeNetworkError(request: number) }
      let profile = Profile(id: id, name: "\(id)-\(number)")
      return (profile, "returns \(profile.name)")
    }
  }
}
