// The judge says: Your test does not finish on a design that keeps the chapter's promise
// The judge says: Your test stops on the starter the way it stops on a design that keeps the promise
// The judge never says: ✔ Your test catches the wrong fixes
// The judge never says: asks for more than the promise
// It waits for the prune to return before it lets the disk answer: it stops on every version.

import Foundation
import ScheduleExplorer
import Services
import Testing
import WorkbookTestSupport

@testable import Chapter15

@Suite("Chapter 15: the user cache, as you test it", .testScheduler)
struct UserCacheTests {
  @Test("A user fetched during a prune stays in the cache")
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
    _ = try await scenario.call("profile(for: bob)") { try await cache.profile(for: "bob") }
    _ = try await prune.results()
    disk.open()
    let users = await cache.cachedUsers
    #expect(users == ["bob"], scenario.explain("the cache holds \(users)", correctly: "bob"))
  }
}
