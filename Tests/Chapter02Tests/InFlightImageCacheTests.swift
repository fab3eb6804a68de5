import Foundation
import ScheduleExplorer
import Services
import Testing
import WorkbookTestSupport

@testable import Chapter02

@Suite("Chapter 02: one download per image", .testScheduler, .exposesBug)
struct InFlightDownloadTests {
  @Test("Five callers who ask at once share one download")
  func callersAskingAtOnceShareOneDownload() async throws {
    let scenario = Scenario()
    let client = FakeImageClient(scenario)
    let cache = ImageCache(client: client)

    let callers = scenario.start(5, "image(for: cat.png)") { try await cache.image(for: .cat) }
    try await scenario.settle()
    let downloadsWhileWaiting = client.downloads(of: .cat)
    client.open()
    let results = try await callers.results()

    #expect(
      client.downloads(of: .cat) == 1,
      scenario.explain(
        """
        5 callers asked for cat.png at once and \(client.downloads(of: .cat)) downloads started \
        (\(downloadsWhileWaiting) while the first was still running); expected 1. Each caller \
        found nothing in the cache: while the first caller was suspended at `await` for its \
        download, nothing in the actor's state said that the download existed, so each caller \
        started its own. Callers got: \
        \(describe(results)).
        """,
        correctly: "only download #1 starts; B, C, D and E wait for it, and all five get image #1."
      )
    )
    #expect(
      results.allSatisfy { $0.value == FakeImageClient.image(number: 1) },
      "every caller should get image #1, from the one download; \(describe(results))"
    )
  }

  @Test("A caller who asks just as the download finishes joins it instead of downloading again")
  func callerArrivingAsTheDownloadFinishesJoinsIt() async throws {
    let scenario = Scenario()
    let client = FakeImageClient(scenario)
    let cache = ImageCache(client: client)

    let results = try await scenario.callInTheGap("image(for: cat.png)", answering: client) {
      try await cache.image(for: .cat)
    }

    #expect(
      client.downloads(of: .cat) == 1,
      scenario.explain(
        """
        Caller B asked for cat.png after download #1 had finished but before caller A had \
        resumed to store its image, and \(client.downloads(of: .cat)) downloads started; expected \
        1. In that gap the cache held neither the image nor any sign of the download that had \
        just brought it. Callers got: \(describe(results)).
        """,
        correctly: "B joins download #1 and gets image #1 without a download of its own."
      )
    )
  }

  /// Where B is held once download #1 has failed: before it can resume, or, once it has heard,
  /// where it next leaves the actor.
  enum Late: String, CustomTestStringConvertible, CaseIterable {
    case beforeItResumes = "before it resumes"
    case awayFromTheActor = "where it next leaves the actor"

    var testDescription: String { rawValue }
  }

  @Test(
    "A caller who hears of a failure late leaves the next download alone",
    arguments: Late.allCases)
  func lateNewsOfAFailureLeavesTheNextDownloadAlone(held: Late) async throws {
    let scenario = Scenario()
    let client = FakeImageClient(scenario)
    let cache = ImageCache(client: client)

    let (first, joiner) = try await aDownloadWithAJoiner(scenario, client, cache)
    // Download #1 fails, and A hears of it; B, who asked too, is held before it can resume, or
    // after it has heard, where it next leaves the actor, as for a report of the failure.
    switch held {
    case .beforeItResumes: joiner.hold()
    case .awayFromTheActor: joiner.holdWhenTheyLeaveTheActor()
    }
    client.requests.release(1, as: FakeImageClient.Outcome.failure)
    _ = try await first.results()
    if held == .awayFromTheActor { try await joiner.waitUntilHeldOrFinished() }
    let next = scenario.start(1, "image(for: cat.png)") { try await cache.image(for: .cat) }
    try await scenario.settle()
    let nextDownloaded = client.downloads(of: .cat) > 1
    joiner.release()
    try await scenario.settle()
    let before = client.downloads(of: .cat)
    let last = scenario.start(1, "image(for: cat.png)") { try await cache.image(for: .cat) }
    try await scenario.settle()
    let started = client.downloads(of: .cat) - before
    client.open()
    let results = try await first.results() + joiner.results() + next.results() + last.results()
    let all = client.downloads(of: .cat)

    #expect(
      nextDownloaded && started == 0 && all == 2,
      scenario.explain(
        nextDownloaded && started == 0
          ? """
          A and B asked for cat.png, and download #1 failed. A heard of it at once; B was held \
          back \(held == .beforeItResumes ? "before it could resume" : "once it had heard, where it next left the actor"). \
          C asked next and download #2 started. Then B was let go, while download #2 was still \
          running, and \(all - 2) more download\(all == 3 ? "" : "s") of cat.png started beside \
          it. Callers got: \(describe(results)).
          """
          : nextDownloaded
            ? """
            A and B asked for cat.png, and download #1 failed. A heard of it at once; B was held \
            back \(held == .beforeItResumes ? "before it could resume" : "once it had heard, where it next left the actor"). \
            C asked next and a new download started. Then B was let go, and after that D asked \
            while C's download was still running: \(started) more download\(started == 1 ? "" : "s") \
            of cat.png started for D. What B did about the old failure made the cache forget the \
            download running now. Callers got: \(describe(results)).
            """
            : """
            A and B asked for cat.png, and download #1 failed. A heard of it at once; B was held \
            back \(held == .beforeItResumes ? "before it could resume" : "once it had heard, where it next left the actor"). \
            C asked after A had heard of the failure, and no download started for C: the failed \
            download was still on record. Callers got: \(describe(results)).
            """,
        correctly: "D waits for C's download and gets its image; two downloads in all."
      )
    )
  }

  @Test("A caller who asks once the failure has been heard gets a new download")
  func callerAskingAfterTheFailureWasHeardDownloadsAgain() async throws {
    let scenario = Scenario()
    let client = FakeImageClient(scenario)
    let cache = ImageCache(client: client)

    let (first, joiner) = try await aDownloadWithAJoiner(scenario, client, cache)
    // Download #1 fails. B has not resumed yet; A has heard of the failure and is held where it
    // next leaves the actor, as for a report of the failure, or as it returns.
    joiner.hold()
    first.holdWhenTheyLeaveTheActor()
    client.requests.release(1, as: FakeImageClient.Outcome.failure)
    try await first.waitUntilHeldOrFinished()
    let next = scenario.start(1, "image(for: cat.png)") { try await cache.image(for: .cat) }
    try await scenario.settle()
    let started = client.downloads(of: .cat) - 1
    first.release()
    joiner.release()
    client.open()
    let results = try await first.results() + joiner.results() + next.results()

    #expect(
      started == 1,
      scenario.explain(
        """
        A and B asked for cat.png, and download #1 failed. A, who started it, had heard of the \
        failure and was held where it next left the actor; B had not yet resumed. C asked then, \
        and \(started) download\(started == 1 ? "" : "s") started for C: \
        \(started == 0 ? "the failed download was still on record, and C was handed a failure from before it asked" : "more than one call's worth"). \
        Callers got: \(describe(results)).
        """,
        correctly: "download #2 starts for C, and C gets its image."
      )
    )
  }

  /// Caller A asks for cat.png and starts download #1; then caller B asks while it runs, and the
  /// test stops here unless B waits for download #1 instead of starting one of its own.
  private func aDownloadWithAJoiner(
    _ scenario: Scenario, _ client: FakeImageClient, _ cache: ImageCache
  ) async throws -> (first: Callers<Image>, joiner: Callers<Image>) {
    let first = scenario.start(1, "image(for: cat.png)") { try await cache.image(for: .cat) }
    try await scenario.settle()
    let joiner = scenario.start(1, "image(for: cat.png)") { try await cache.image(for: .cat) }
    try await scenario.settle()
    try #require(
      client.downloads(of: .cat) == 1,
      scenario.explain(
        """
        B asked for cat.png while download #1 was running, and \(client.downloads(of: .cat) - 1) \
        more download\(client.downloads(of: .cat) == 2 ? "" : "s") of cat.png started instead of \
        B waiting for download #1.
        """,
        correctly: "B waits for download #1."
      )
    )
    return (first, joiner)
  }
}

@Suite("Chapter 02: what the cache must keep doing", .testScheduler)
struct InFlightGuardTests {
  @Test("A cached image costs no second download")
  func cachedImageCostsNoDownload() async throws {
    let scenario = Scenario()
    let client = FakeImageClient(scenario)
    let cache = ImageCache(client: client)
    client.open()

    let first = try await scenario.call("image(for: cat.png)") { try await cache.image(for: .cat) }
    let second = try await scenario.call("image(for: cat.png)") { try await cache.image(for: .cat) }

    #expect(first == second, "the second call should return the cached image")
    #expect(
      client.downloads(of: .cat) == 1,
      "asking twice, one call after the other, started \(client.downloads(of: .cat)) downloads of cat.png; expected 1"
    )
  }

  // Three failures in a row too: a cache that stops downloading a picture for a while after a
  // few failures hands later callers a failure they never waited for.
  @Test(
    "A failed download fails every caller waiting for it, and the next call downloads again",
    arguments: [1, 3])
  func failureReachesEveryCallerAndIsNotCached(failuresInARow: Int) async throws {
    let scenario = Scenario()
    let client = FakeImageClient(scenario)
    let cache = ImageCache(client: client)

    client.outcome = .failure
    for _ in 1...failuresInARow {
      let callers = scenario.start(3, "image(for: cat.png)") { try await cache.image(for: .cat) }
      try await scenario.settle()
      client.open()
      let results = try await callers.results()
      client.requests.close()
      // Any error will do: a cache may wrap the download's error in one of its own.
      #expect(
        results.allSatisfy { $0.error != nil },
        "every caller waiting for a failed download should get an error; \(describe(results))"
      )
    }

    client.outcome = .image
    client.open()
    let downloadsBefore = client.downloads(of: .cat)
    let retried = try await scenario.call("image(for: cat.png)") {
      try await cache.image(for: .cat)
    }
    #expect(
      client.downloads(of: .cat) == downloadsBefore + 1,
      "after \(failuresInARow) failed downloads in a row, the next call should start a new download instead of reusing a failed one"
    )
    #expect(retried == FakeImageClient.image(number: downloadsBefore + 1))
  }

  @Test("Bytes that are not an image throw, and the next call downloads again")
  func undecodableBytesThrowAndAreNotKept() async throws {
    let scenario = Scenario()
    let client = FakeImageClient(scenario)
    let cache = ImageCache(client: client)
    client.open()

    client.outcome = .undecodableData
    let first = try await scenario.start(1, "image(for: cat.png)") {
      try await cache.image(for: .cat)
    }.results()[0]
    client.outcome = .image
    let next = try await scenario.call("image(for: cat.png)") { try await cache.image(for: .cat) }

    #expect(
      first.error != nil && next == FakeImageClient.image(number: 2),
      scenario.explain(
        """
        Download #1 brought back bytes that are not an image: \(first). The next caller then \
        got \(next.testDescription), after \(client.downloads(of: .cat)) downloads in all. What \
        cannot be decoded is a failed download: it is reported, and never kept.
        """,
        correctly: "A throws an error, and the next caller downloads image #2."
      )
    )
  }

  @Test("A caller who asks as the download answers, before anyone has resumed, joins it")
  func callerAskingAsTheDownloadAnswersJoinsIt() async throws {
    let scenario = Scenario()
    let client = FakeImageClient(scenario)
    let cache = ImageCache(client: client)

    let first = scenario.start(1, "image(for: cat.png)") { try await cache.image(for: .cat) }
    try await scenario.settle()
    // B asks in the same breath as the answer. A's resumption is ready first, and the test's
    // scheduler runs it first: what A does up to its next `await` runs before B, and whatever A
    // does after that `await` may run after B.
    client.requests.release(1, as: FakeImageClient.Outcome.image)
    let second = scenario.start(1, "image(for: cat.png)") { try await cache.image(for: .cat) }
    try await scenario.settle()
    let downloads = client.downloads(of: .cat)
    client.open()
    let results = try await first.results() + second.results()

    #expect(
      downloads == 1,
      scenario.explain(
        """
        Download #1 of cat.png answered, and B asked for cat.png before anything else ran: \
        \(downloads) downloads of cat.png started. Callers got: \(describe(results)).
        """,
        correctly: "B joins download #1, or finds its image stored, and gets image #1."
      )
    )
  }

  @Test("A caller who asks while the first caller is still making its image joins its download")
  func callerAskingWhileTheImageIsMadeJoinsIt() async throws {
    let scenario = Scenario()
    let client = FakeImageClient(scenario)
    let cache = ImageCache(client: client)

    let first = scenario.start(1, "image(for: cat.png)") { try await cache.image(for: .cat) }
    try await scenario.settle()
    // From the answer on, a task that the cache starts, to make the image elsewhere or for any
    // other reason, starts late, as it may on a busy pool of threads; meanwhile B asks.
    scenario.holdNewTasks()
    client.requests.release(1, as: FakeImageClient.Outcome.image)
    try await scenario.settle()
    let second = scenario.start(1, "image(for: cat.png)") { try await cache.image(for: .cat) }
    try await scenario.settle()
    scenario.letHeldTasksRun()
    client.open()
    let results = try await first.results() + second.results()
    let downloads = client.downloads(of: .cat)

    #expect(
      downloads == 1,
      scenario.explain(
        """
        Download #1 of cat.png had brought its bytes back, and caller A was not yet done with \
        them when caller B asked for cat.png: \(downloads) downloads of cat.png started; \
        expected 1. Callers got: \(describe(results)).
        """,
        correctly: "B joins download #1, or finds its image stored, and gets image #1."
      )
    )
  }

  @Test(
    "A caller who asks while the first caller has left the actor with its bytes joins its download")
  func callerAskingWhileTheFirstIsAwayJoinsIt() async throws {
    let scenario = Scenario()
    let client = FakeImageClient(scenario)
    let cache = ImageCache(client: client)

    let first = scenario.start(1, "image(for: cat.png)") { try await cache.image(for: .cat) }
    try await scenario.settle()
    // Once the bytes are back, A is held where it next leaves the actor: to make its image in a
    // `@concurrent` function, say, or to return. Meanwhile the actor takes B's call.
    first.holdWhenTheyLeaveTheActor()
    client.requests.release(1, as: FakeImageClient.Outcome.image)
    try await scenario.settle()
    let second = scenario.start(1, "image(for: cat.png)") { try await cache.image(for: .cat) }
    try await scenario.settle()
    first.release()
    client.open()
    let results = try await first.results() + second.results()
    let downloads = client.downloads(of: .cat)

    #expect(
      downloads == 1,
      scenario.explain(
        """
        Download #1 of cat.png had brought its bytes back, and caller A had left the actor, \
        not yet returned, when caller B asked for cat.png: \(downloads) downloads of cat.png \
        started; expected 1. Callers got: \(describe(results)).
        """,
        correctly: "B joins download #1, or finds its image stored, and gets image #1."
      )
    )
  }

  @Test("Different URLs download at the same time")
  func differentURLsDownloadAtTheSameTime() async throws {
    let scenario = Scenario()
    let client = FakeImageClient(scenario)
    let cache = ImageCache(client: client)

    let cat = scenario.start(1, "image(for: cat.png)") { try await cache.image(for: .cat) }
    let dog = scenario.start(1, "image(for: dog.png)") { try await cache.image(for: .dog) }
    let bothRunning = await scenario.wait { client.requestsInFlight >= 2 }
    client.open()
    let results = try await cat.results() + dog.results()

    #expect(
      bothRunning,
      scenario.explain(
        """
        While cat.png was downloading, dog.png's download did not start: at most \
        \(client.mostRequestsAtOnce) download ran at a time, so the caller of dog.png waited for \
        an image it had not asked for. Callers got: \(describe(results)).
        """,
        correctly: "downloads of cat.png and dog.png both start before either finishes."
      )
    )
    #expect(
      results.allSatisfy { $0.value != nil },
      "both callers should get an image; \(describe(results))")
  }

  @Test("A hundred callers of different pictures all download at the same time")
  func aHundredDifferentPicturesDownloadAtTheSameTime() async throws {
    let scenario = Scenario()
    let client = FakeImageClient(scenario)
    let cache = ImageCache(client: client)

    try await DifferentPictures.expectAllDownloadAtOnce(in: scenario, client: client) {
      try await cache.image(for: $0)
    }
  }

  @Test(
    "Addresses that differ from another only in their scheme, host, port or query download apart, and each keeps its picture"
  )
  func addressesSharingAFileNameAreOtherPictures() async throws {
    let scenario = Scenario()
    let client = FakeImageClient(scenario)
    let cache = ImageCache(client: client)

    let cat = scenario.start(1, "image(for: cat.png)") { try await cache.image(for: .cat) }
    let thumbnail = scenario.start(1, "image(for: thumbnails.example.com/cat.png)") {
      try await cache.image(for: .catThumbnail)
    }
    let small = scenario.start(1, "image(for: cat.png?size=small)") {
      try await cache.image(for: .catSmall)
    }
    let otherPort = scenario.start(1, "image(for: images.example.com:8443/cat.png)") {
      try await cache.image(for: .catOnAnotherPort)
    }
    let overHTTP = scenario.start(1, "image(for: http://images.example.com/cat.png)") {
      try await cache.image(for: .catOverHTTP)
    }
    let allRunning = await scenario.wait { client.requestsInFlight >= 5 }
    client.open()
    let first =
      try await cat.results() + thumbnail.results() + small.results() + otherPort.results()
      + overHTTP.results()
    let later = try await scenario.call("image(for: cat.png?size=small)") {
      try await cache.image(for: .catSmall)
    }

    let images = first.compactMap(\.value)
    #expect(
      allRunning && images.count == 5 && Set(images).count == 5,
      scenario.explain(
        """
        \(URL.cat), \(URL.catThumbnail), \(URL.catSmall), \(URL.catOnAnotherPort) and \
        \(URL.catOverHTTP) are five pictures whose file names are the same, asked for at once, yet \
        \(client.mostRequestsAtOnce) downloads ran at a time and callers got: \(describe(first)).
        """,
        correctly: "each address has a download of its own, and each caller gets its own image."
      )
    )
    #expect(
      later == first[2].value && client.downloads(of: .catSmall) == 1,
      """
      Asking for \(URL.catSmall) again returned \(later.testDescription) after \
      \(client.downloads(of: .catSmall)) downloads of it; expected the image its first caller \
      got, with no second download. First callers: \(describe(first)).
      """
    )
  }

  @Test(
    "An address that differs from another only in the case of its path downloads apart, and keeps its picture"
  )
  func addressDifferingInCaseIsAnotherPicture() async throws {
    let scenario = Scenario()
    let client = FakeImageClient(scenario)
    let cache = ImageCache(client: client)

    let cat = scenario.start(1, "image(for: cat.png)") { try await cache.image(for: .cat) }
    let capitalized = scenario.start(1, "image(for: Cat.png)") {
      try await cache.image(for: .catCapitalized)
    }
    let bothRunning = await scenario.wait { client.requestsInFlight >= 2 }
    client.open()
    let results = try await cat.results() + capitalized.results()
    let images = results.compactMap(\.value)

    #expect(
      bothRunning && images.count == 2 && images[0] != images[1],
      scenario.explain(
        """
        \(URL.cat) and \(URL.catCapitalized) differ only in the case of a letter of their \
        path, which a server may tell apart: only the scheme and the host of an address ignore \
        case. Asked for at once, \(client.mostRequestsAtOnce) downloads ran at a time, and \
        callers got: \(describe(results)).
        """,
        correctly: "each address has a download of its own, and each caller gets its own image."
      )
    )
  }
}

@Suite("Chapter 02: every interleaving", .testScheduler, .exposesBug)
struct InFlightExplorationTests {
  @Test("Three callers, in every order, one failed answer at most, share one download and agree")
  func everyInterleavingKeepsThePromise() async {
    await Exploration(
      ImageCacheWorld.self, calls: [.image(.cat), .image(.cat), .image(.dog)]
    ).run()
  }
}

/// The cache in a world of its own, with the promise it keeps in every schedule.
struct ImageCacheWorld: ChapterWorld {
  let client: FakeImageClient
  let cache: ImageCache

  init(_ scenario: Scenario) {
    client = FakeImageClient(scenario)
    cache = ImageCache(client: client)
  }

  var fakes: [any FakeService] { [client] }

  func perform(_ call: ImageCall) async throws -> any Sendable {
    try await cache.image(for: call.url)
  }

  /// Callers who ask for the same image while it downloads share one download and get the same
  /// image; a stored image costs no download; a failed download reaches only callers who asked
  /// while it ran or before the caller who started it returned (the promise says "before that
  /// caller heard of the failure", which a scripted test checks); and nobody waits for another
  /// image's download.
  func checkPromise(_ moment: Moment<Self>) async {
    let succeeded: (Requests.Record) -> Bool = {
      $0.outcome(as: FakeImageClient.Outcome.self) == .image
    }
    moment.expectOneRequestAtATime(
      per: client.requests, keepsSuccess: true, succeeded: succeeded)
    moment.expectAgreement(on: Image.self)
    moment.expectKeepsWhatItReturned(client.requests)
    moment.expectFailuresAreFresh(client.requests, failed: { !succeeded($0) })
    moment.expectNobodyWaitsForAnotherKey(client.requests)
  }
}
