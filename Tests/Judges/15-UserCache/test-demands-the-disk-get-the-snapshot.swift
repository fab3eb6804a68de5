// The judge says: asks for more than the promise: it forgets the expired profiles before it writes, and writes once more
// It demands that the disk get exactly what the cache held when the prune began, where the lesson
// lets a right design write a little more of what was fetched meanwhile.

import Foundation
import ScheduleExplorer
import Services
import Testing
import WorkbookTestSupport

@testable import Chapter15

@Suite("Chapter 15: the user cache, as you test it", .testScheduler)
struct UserCacheTests {
  @Test("A user fetched during a prune stays, and the disk gets what the prune began with")
  func fetchedDuringThePrune() async throws {
    let scenario = Scenario()
    let directory = FakeUserDirectory(scenario)
    let disk = FakeProfileDisk(scenario)
    let clock = FakeWallClock(scenario)
    let cache = UserCache(directory: directory, disk: disk, clock: clock, lifetime: 300)
    directory.open()
    _ = try await scenario.call("profile(for: ann)") { try await cache.profile(for: "ann") }
    clock.advance(by: 301)
    let prune = scenario.start(1, "pruneExpired()") { try await cache.pruneExpired() }
    try await scenario.settle()
    _ = try await scenario.call("profile(for: bob)") { try await cache.profile(for: "bob") }
    disk.open()
    _ = try await prune.results()
    let users = await cache.cachedUsers
    #expect(users == ["bob"], scenario.explain("the cache holds \(users)", correctly: "bob"))
    #expect(disk.profiles.isEmpty, "the disk got \(disk.profiles)")
  }
}
