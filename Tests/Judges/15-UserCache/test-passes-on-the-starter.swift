// The judge says: Your test passes on the starter, whose users report the bug
// The judge says: which profiles were fetched while the cache was being pruned
// The judge never says: messages
// It checks only what the starter gets right, in chapter 15: the advice is chapter 15's own.

import Foundation
import ScheduleExplorer
import Services
import Testing
import WorkbookTestSupport

@testable import Chapter15

@Suite("Chapter 15: the user cache, as you test it", .testScheduler)
struct UserCacheTests {
  struct World {
    let scenario: Scenario
    let directory: FakeUserDirectory
    let disk: FakeProfileDisk
    let clock: FakeWallClock
    let cache: UserCache

    func fetch(_ id: String) async throws -> Profile {
      directory.open()
      defer { directory.close() }
      return try await scenario.call("profile(for: \(id))") { try await cache.profile(for: id) }
    }
  }

  func world() async throws -> World {
    let scenario = Scenario()
    let directory = FakeUserDirectory(scenario)
    let disk = FakeProfileDisk(scenario)
    let clock = FakeWallClock(scenario)
    let cache = UserCache(directory: directory, disk: disk, clock: clock, lifetime: 300)
    let world = World(
      scenario: scenario, directory: directory, disk: disk, clock: clock, cache: cache)
    _ = try await world.fetch("ann")
    return world
  }
  @Test("A profile fresh when pruning began stays, even if it expires during the save")
  func freshAtTheStartStays() async throws {
    let w = try await world()
    w.clock.advance(by: 200)
    _ = try await w.fetch("bob")
    w.clock.advance(by: 101)
    let prune = w.scenario.start(["app"], "pruneExpired()") { try await w.cache.pruneExpired() }
    try await w.scenario.settle()
    w.clock.advance(by: 300)
    w.disk.open()
    _ = try await prune.results()
    #expect(await w.cache.cachedUsers == ["bob"])
    #expect(w.disk.profiles.keys.sorted() == ["bob"])
  }

  @Test("Pruning with nothing going on forgets what expired and saves the rest")
  func quietPrune() async throws {
    let w = try await world()
    w.clock.advance(by: 200)
    _ = try await w.fetch("bob")
    w.clock.advance(by: 101)
    w.disk.open()
    try await w.scenario.call("pruneExpired()") { try await w.cache.pruneExpired() }
    #expect(await w.cache.cachedUsers == ["bob"])
    #expect(w.disk.profiles == ["bob": Profile(id: "bob", name: "bob-2")])
  }
}
