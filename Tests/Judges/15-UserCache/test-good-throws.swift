// Judged good: it checks by throwing an error of its own, and has no #expect.

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
  struct Broken: Error, CustomStringConvertible { let description: String }

  func check(_ ok: Bool, _ what: String) throws { if !ok { throw Broken(description: what) } }

  @Test("Profiles fetched while pruning, new and afresh, are kept")
  func bothKinds() async throws {
    let w = try await world()
    w.clock.advance(by: 301)
    let prune = w.scenario.start(["app"], "pruneExpired()") { try await w.cache.pruneExpired() }
    try await w.scenario.settle()
    _ = try await w.fetch("ann")
    _ = try await w.fetch("bob")
    w.disk.open()
    _ = try await prune.results()
    let users = await w.cache.cachedUsers
    try check(users == ["ann", "bob"], "the cache holds \(users)")
    try check(w.disk.profiles["ann"]?.name != "ann-1", "the disk got the expired ann-1")
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
    let users = await w.cache.cachedUsers
    try check(users == ["bob"], "the cache holds \(users)")
  }

  @Test("A quiet prune writes what it keeps")
  func quiet() async throws {
    let w = try await world()
    w.clock.advance(by: 200)
    _ = try await w.fetch("bob")
    w.clock.advance(by: 101)
    w.disk.open()
    try await w.scenario.call("pruneExpired()") { try await w.cache.pruneExpired() }
    try check(
      w.disk.profiles.keys.sorted() == ["bob"], "the disk got \(w.disk.profiles.keys.sorted())")
  }
}
