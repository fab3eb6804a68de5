// The workbook's tests of the user cache: one answer to the chapter's exercise. Each test prunes
// the cache while the disk is slow, and has something else happen meanwhile.

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

  @Test("A profile fetched afresh while the cache is pruned is kept")
  func profileRefreshedWhilePruningIsKept() async throws {
    let scenario = Scenario()
    let directory = FakeUserDirectory(scenario)
    let disk = FakeProfileDisk(scenario)
    let clock = FakeWallClock(scenario)
    let cache = UserCache(directory: directory, disk: disk, clock: clock, lifetime: 300)
    directory.open()
    _ = try await scenario.call("profile(for: ann)") { try await cache.profile(for: "ann") }
    clock.advance(by: 301)

    // Ann's profile has expired. While the disk writes, she is asked for, and fetched afresh.
    let pruning = scenario.start(1, "pruneExpired()") { try await cache.pruneExpired() }
    try await scenario.settle()
    let fresh = try await scenario.call("profile(for: ann)") { try await cache.profile(for: "ann") }
    disk.open()
    _ = try await pruning.results()
    let again = try await scenario.call("profile(for: ann)") { try await cache.profile(for: "ann") }

    #expect(
      directory.fetches(of: "ann") == 2 && again == fresh,
      scenario.explain(
        """
        Ann's profile had expired, and was fetched afresh (\(fresh.name)) while the cache was \
        being pruned. Asked for ann again after the pruning, the cache gave \(again.name), after \
        \(directory.fetches(of: "ann")) fetches of ann in all.
        """,
        correctly: "the last profile(for: ann) gets \(fresh.name) from the cache, with no fetch."
      )
    )
  }

  @Test("Pruning forgets the profiles that have expired")
  func pruningForgetsExpiredProfiles() async throws {
    let scenario = Scenario()
    let directory = FakeUserDirectory(scenario)
    let disk = FakeProfileDisk(scenario)
    let clock = FakeWallClock(scenario)
    let cache = UserCache(directory: directory, disk: disk, clock: clock, lifetime: 300)
    directory.open()
    disk.open()
    _ = try await scenario.call("profile(for: ann)") { try await cache.profile(for: "ann") }
    clock.advance(by: 301)
    _ = try await scenario.call("profile(for: bob)") { try await cache.profile(for: "bob") }
    try await scenario.call("pruneExpired()") { try await cache.pruneExpired() }
    let held = await cache.cachedUsers

    #expect(
      held == ["bob"] && disk.profiles.keys.sorted() == ["bob"],
      scenario.explain(
        """
        Ann's profile had expired and bob's had not when the cache was pruned. Afterwards the \
        cache holds \(held), and the disk holds \(disk.profiles.keys.sorted()).
        """,
        correctly: "the cache and the disk hold bob alone."
      )
    )
  }
}
