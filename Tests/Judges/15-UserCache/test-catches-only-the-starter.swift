// A student's test that catches the starter's bug and stops there: the workbook's self-check
// proves that the judge tells it which wrong fix it misses. It is the workbook's first test alone.

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

    let pruning = scenario.start(1, "pruneExpired()") { try await cache.pruneExpired() }
    try await scenario.settle()
    // While the disk writes, a message from bob comes in, and his profile is fetched.
    directory.open()
    _ = try await scenario.call("profile(for: bob)") { try await cache.profile(for: "bob") }
    disk.open()
    _ = try await pruning.results()
    _ = try await scenario.call("profile(for: bob)") { try await cache.profile(for: "bob") }
    let held = await cache.cachedUsers

    #expect(
      directory.fetches(of: "bob") == 1,
      scenario.explain(
        """
        Bob's profile was fetched while the cache was being pruned, a moment before the disk \
        finished writing. Asked for bob again, the cache fetched him \
        \(directory.fetches(of: "bob")) times in all; it holds \(held) now.
        """,
        correctly: "the second profile(for: bob) is answered from the cache, with no fetch."
      )
    )
  }
}
