import Foundation
import Services
import Testing
import WorkbookTestSupport

@testable import Chapter05

@Suite("Chapter 05: the latest request owns its key", .exposesBug)
struct LatestRequestTests {
  @Test("Cancelling a key cancels the download that is really running for it")
  func cancellingAKeyCancelsTheNewerDownload() async throws {
    let scenario = Scenario()
    let client = FakeImageClient(scenario)
    let manager = DownloadManager(client: client)

    let older = scenario.start(1, "download(cat.png, for: hero)") {
      try await manager.download(.cat, for: "hero")
    }
    try await scenario.settle()
    let newer = scenario.start(1, "download(dog.png, for: hero)") {
      try await manager.download(.dog, for: "hero")
    }
    // The newer request cancels the older download, and the older call ends.
    _ = try await older.results()
    let newerStarted = await scenario.wait { client.requestsStarted == 2 }
    try #require(newerStarted, "the newer request should start download #2")

    let shown = try await scenario.call("isDownloading(for: hero)") {
      await manager.isDownloading(for: "hero")
    }
    try await scenario.call("cancelDownload(for: hero)") {
      await manager.cancelDownload(for: "hero")
    }
    let cancelled = client.wasCancelled(2)
    client.open()
    let results = try await older.results() + newer.results()

    #expect(
      cancelled,
      scenario.explain(
        """
        After caller B's request replaced caller A's, cancelDownload(for: hero) did not cancel \
        download #2, which was still running, and isDownloading(for: hero) answered \(shown). \
        When A's call ended, its `defer` removed the entry for hero, but that entry was B's by \
        then: A's cleanup ran after its `await`, when the key no longer belonged to it. Callers \
        got: \(describe(results)).
        """,
        correctly:
          "A's cleanup leaves B's entry alone, so cancelDownload(for: hero) cancels download #2."
      )
    )
  }
}

@Suite("Chapter 05: what the download manager must keep doing")
struct DownloadManagerGuardTests {
  @Test("A newer request for a key cancels the older download")
  func newerRequestCancelsTheOlderDownload() async throws {
    let scenario = Scenario()
    let client = FakeImageClient(scenario)
    let manager = DownloadManager(client: client)

    let older = scenario.start(1, "download(cat.png, for: hero)") {
      try await manager.download(.cat, for: "hero")
    }
    try await scenario.settle()
    let newer = scenario.start(1, "download(dog.png, for: hero)") {
      try await manager.download(.dog, for: "hero")
    }
    let olderResult = try await older.results()[0]
    client.open()
    let newerResult = try await newer.results()[0]

    #expect(
      client.wasCancelled(1), "download #1 should be cancelled when a newer request replaces it")
    #expect(
      olderResult.error is CancellationError,
      "the replaced call should throw CancellationError; \(olderResult)")
    #expect(newerResult.value == FakeImageClient.image(number: 2), "\(newerResult)")
  }

  @Test("A finished download no longer counts as running")
  func finishedDownloadIsForgotten() async throws {
    let scenario = Scenario()
    let client = FakeImageClient(scenario)
    let manager = DownloadManager(client: client)
    client.open()

    _ = try await scenario.call("download(cat.png, for: hero)") {
      try await manager.download(.cat, for: "hero")
    }
    let downloading = try await scenario.call("isDownloading(for: hero)") {
      await manager.isDownloading(for: "hero")
    }

    #expect(!downloading, "after its download finished, hero should not show a spinner")
  }

  @Test("Downloads for different keys run side by side")
  func differentKeysDoNotReplaceEachOther() async throws {
    let scenario = Scenario()
    let client = FakeImageClient(scenario)
    let manager = DownloadManager(client: client)

    let hero = scenario.start(1, "download(cat.png, for: hero)") {
      try await manager.download(.cat, for: "hero")
    }
    let thumbnail = scenario.start(1, "download(dog.png, for: thumbnail)") {
      try await manager.download(.dog, for: "thumbnail")
    }
    let bothRunning = await scenario.wait { client.requestsInFlight == 2 }
    client.open()
    let results = try await hero.results() + thumbnail.results()

    #expect(
      bothRunning,
      scenario.explain(
        "the two keys' downloads did not run together", correctly: "both download at once."))
    #expect(
      results.allSatisfy { $0.value != nil },
      scenario.explain(
        "a request for one key must not cancel another key's download; \(describe(results))",
        correctly: "A gets image #1 and B gets image #2."
      )
    )
  }
}
