// Your tests of the user cache. Write the calls and the promise until a test goes red on the actor
// in UserCache.swift, then run `swift run workbook check 15`: it tries your tests on the
// workbook's wrong fixes and right designs before you fix the actor.

import ScheduleExplorer
import Services
import Testing
import WorkbookTestSupport

@testable import Chapter15

@Suite("Chapter 15: the user cache, as you test it", .testScheduler)
struct UserCacheTests {
  @Test("A profile fetched while the cache is pruned is kept")
  func profileFetchedWhilePruningIsKept() async throws {
    let scenario = Scenario()
    let directory = FakeUserDirectory(scenario)
    let disk = FakeProfileDisk(scenario)
    let clock = FakeWallClock(scenario)
    let cache = UserCache(directory: directory, disk: disk, clock: clock, lifetime: 300)

    // The app has shown one of ann's messages: her profile is cached.
    directory.open()
    _ = try await scenario.call("profile(for: ann)") { try await cache.profile(for: "ann") }
    directory.close()

    // TODO: prune the cache while profiles are being fetched, let the disk and the directory
    // answer in the order the users' reports point at, and #expect what the cache should hold.
  }
}
