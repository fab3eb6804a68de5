import Foundation
import ScheduleExplorer
import Services
import Testing
import WorkbookTestSupport

@testable import Chapter05

@Suite("Chapter 05: the latest request owns its key", .testScheduler, .exposesBug)
struct LatestRequestTests {
  @Test("Cancelling a key cancels the download that is really running for it")
  func cancellingAKeyCancelsTheNewerDownload() async throws {
    let scenario = Scenario()
    let client = FakeImageClient(scenario)
    let manager = DownloadManager(client: client)

    let older = scenario.download(.cat, for: "hero", with: manager)
    try await scenario.settle()
    let newer = scenario.download(.dog, for: "hero", with: manager)
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

    let kept =
      shown
      ? "isDownloading(for: hero) still answered true, yet what the manager kept for hero did not lead to download #2"
      : "isDownloading(for: hero) answered false: the manager kept nothing for hero any more, though download #2 still ran for B"
    #expect(
      cancelled,
      scenario.explain(
        """
        After caller B's request replaced caller A's, and A's call had ended, \
        cancelDownload(for: hero) did not cancel download #2, which was still running, and \
        \(kept). From the moment B asked, hero was B's. Callers got: \(describe(results)).
        """,
        correctly:
          "hero shows as downloading while download #2 runs, and cancelDownload(for: hero) cancels it."
      )
    )
  }

  // Also with the second request's download finished before the third asks: a manager that
  // forgets everything about a key once its latest request ends may then take the third request
  // for the first.
  @Test(
    "Of three requests for one key, the first one's late end leaves the third in charge",
    arguments: [false, true])
  func thirdRequestOwnsItsKeyAfterTheFirstEnds(secondFinishesFirst: Bool) async throws {
    let scenario = Scenario()
    let client = FakeImageClient(scenario)
    client.cancelledRequestsWaitForRelease = true
    let manager = DownloadManager(client: client)

    let first = scenario.download(.cat, for: "hero", with: manager)
    try await scenario.settle()
    let second = scenario.download(.dog, for: "hero", with: manager)
    try await scenario.settle()
    if secondFinishesFirst {
      client.release(2)
      _ = try await second.results()
    }
    let third = scenario.download(.cat, for: "hero", with: manager)
    try await scenario.settle()
    // The first request's cancelled download winds down only now, and its call ends.
    client.release(1)
    _ = try await first.results()
    let shown = try await scenario.call("isDownloading(for: hero)") {
      await manager.isDownloading(for: "hero")
    }
    client.open()
    let results = try await first.results() + second.results() + third.results()

    #expect(
      shown,
      scenario.explain(
        """
        Callers A, B and C each asked for hero, one after the other\(secondFinishesFirst ? ", B's call ending before C asked" : ""), and C's download #3 was \
        still running when A's call ended; yet isDownloading(for: hero) answered false. From \
        the moment C asked, hero was C's. Callers got: \(describe(results)).
        """,
        correctly: "hero shows as downloading while C's download #3 runs."
      )
    )
  }

  @Test("A newer request for the same image owns its key too", arguments: [false, true])
  func newerRequestForTheSameImageOwnsItsKey(olderGivesUp: Bool) async throws {
    let scenario = Scenario()
    let client = FakeImageClient(scenario)
    client.cancelledRequestsWaitForRelease = true
    let manager = DownloadManager(client: client)

    let older = scenario.download(.cat, for: "hero", with: manager)
    try await scenario.settle()
    let newer = scenario.download(.cat, for: "hero", with: manager)
    try await scenario.settle()
    if olderGivesUp {
      older.cancel()
      try await scenario.settle()
    }
    // The older download, cancelled by the newer request, winds down, and the older call ends.
    client.release(1)
    _ = try await older.results()
    let shown = try await scenario.call("isDownloading(for: hero)") {
      await manager.isDownloading(for: "hero")
    }
    client.open()
    let results = try await older.results() + newer.results()

    #expect(
      shown,
      scenario.explain(
        """
        Callers A and B asked for the same image, cat.png, for the same key, hero, one after the \
        other\(olderGivesUp ? ", and then A's own task was cancelled, as when its screen closes" : ""). \
        Once A's cancelled download had wound down and A's call had ended, \
        isDownloading(for: hero) answered false, though B's download #2 was still running: the \
        end of A's call took away an entry that was B's by then. Callers got: \
        \(describe(results)).
        """,
        correctly: "hero shows as downloading until B's download #2 ends."
      )
    )
  }

  @Test("A request made while an older one for its key is away from the actor replaces it")
  func requestWhileTheOlderIsAwayReplacesIt() async throws {
    let scenario = Scenario()
    let client = FakeImageClient(scenario)
    let manager = DownloadManager(client: client)

    // A is held the first time it leaves the actor: for a step of its own before it has recorded
    // its download, such as preparing its request, or at its return.
    let older = scenario.download(.cat, for: "hero", with: manager)
    older.holdWhenTheyLeaveTheActor()
    try await scenario.settle()
    let away = scenario.callers.contains { $0.name == "A" && $0.isHeld }
    let newer = scenario.download(.dog, for: "hero", with: manager)
    try await scenario.settle()
    older.release()
    try await scenario.settle()
    let uncancelled = client.requests.records.filter {
      $0.caller == "A" && $0.isInFlight && !$0.wasCancelled
    }
    let downloading = try await scenario.call("isDownloading(for: hero)") {
      await manager.isDownloading(for: "hero")
    }
    let newerWaits = !newer.allFinished
    var symptoms: [String] = []
    if !uncancelled.isEmpty {
      let names = uncancelled.map(client.requests.name(of:)).joined(separator: ", ")
      symptoms.append("\(names), A's, still ran uncancelled, though B had replaced A")
    }
    if !downloading {
      symptoms.append(
        "isDownloading(for: hero) answered false"
          + (newerWaits ? ", though B's call was still waiting for its download" : ""))
    }
    client.open()
    _ = try await older.results() + newer.results()

    #expect(
      uncancelled.isEmpty && downloading,
      scenario.explain(
        """
        Caller B asked for hero after caller A, while A \
        \(away ? "was away from the actor" : "waited for its download"). Once A had gone on and \
        everything had settled, \(symptoms.joined(separator: "; ")).
        """,
        correctly:
          "B's request replaces A's: A's download is cancelled, and hero shows as downloading for B."
      )
    )
  }
}

@Suite("Chapter 05: what the download manager must keep doing", .testScheduler)
struct DownloadManagerGuardTests {
  @Test("A newer request for a key cancels the older download")
  func newerRequestCancelsTheOlderDownload() async throws {
    let scenario = Scenario()
    let client = FakeImageClient(scenario)
    let manager = DownloadManager(client: client)

    let older = scenario.download(.cat, for: "hero", with: manager)
    try await scenario.settle()
    let newer = scenario.download(.dog, for: "hero", with: manager)
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

  @Test("A caller who gives up on a replaced request leaves the newer download alone")
  func aCallerWhoGivesUpLeavesTheNewerDownloadAlone() async throws {
    let scenario = Scenario()
    let client = FakeImageClient(scenario)
    // A's replaced download winds down slowly, so that A is still waiting when it gives up.
    client.cancelledRequestsWaitForRelease = true
    let manager = DownloadManager(client: client)

    let older = scenario.download(.cat, for: "hero", with: manager)
    try await scenario.settle()
    let newer = scenario.download(.dog, for: "hero", with: manager)
    try await scenario.settle()
    older.cancel()
    try await scenario.settle()
    let cancelledNewer = client.wasCancelled(2)
    client.open()
    let results = try await older.results() + newer.results()

    #expect(
      !cancelledNewer && results[1].value == FakeImageClient.image(number: 2),
      scenario.explain(
        """
        B's request replaced A's, and while A's cancelled download wound down, A's own task was \
        cancelled too, as when A's screen closes. Nobody cancelled B or hero, yet \(cancelledNewer ? "B's download #2 was cancelled" : "B did not get its image"). Callers got: \(describe(results)).
        """,
        correctly: "B's download #2 runs on, and B gets image #2."
      )
    )
  }

  @Test("A caller whose task is cancelled just before a newer request leaves that request alone")
  func aCallerCancelledBeforeANewerRequestLeavesItAlone() async throws {
    let scenario = Scenario()
    let client = FakeImageClient(scenario)
    let manager = DownloadManager(client: client)

    let older = scenario.download(.cat, for: "hero", with: manager)
    try await scenario.settle()
    // Whatever A's cancellation starts, the runtime may start after B has asked.
    scenario.holdNewTasks()
    older.cancel()
    try await scenario.settle()
    let newer = scenario.download(.dog, for: "hero", with: manager)
    try await scenario.settle()
    scenario.letHeldTasksRun()
    try await scenario.settle()
    client.open()
    let results = try await older.results() + newer.results()
    let own = client.requests.records.last { $0.key == URL.dog.pictureName }

    #expect(
      own.map { results[1].value == FakeImageClient.image(number: $0.number) } ?? false,
      scenario.explain(
        """
        A's own task was cancelled while its request was the latest for hero, as when A's \
        screen closes; what that cancellation started ran only after B had asked for hero and \
        replaced A. Nobody cancelled B or hero, yet B did not get the image of its own download. \
        Callers got: \(describe(results)).
        """,
        correctly: "A ends at most its own request; B's download runs, and B gets its image."
      )
    )
  }

  @Test("A request whose caller gives up no longer shows as downloading once it has ended")
  func aRequestWhoseCallerGaveUpStopsShowingOnceEnded() async throws {
    let scenario = Scenario()
    let client = FakeImageClient(scenario)
    let manager = DownloadManager(client: client)

    let download = scenario.download(.cat, for: "hero", with: manager)
    try await scenario.settle()
    download.cancel()
    try await scenario.settle()
    client.open()
    let results = try await download.results()
    let shown = try await scenario.call("isDownloading(for: hero)") {
      await manager.isDownloading(for: "hero")
    }

    #expect(
      !shown,
      scenario.explain(
        """
        A asked for hero, and then A's own task was cancelled, as when its screen closes. Once \
        A's call had ended, isDownloading(for: hero) still answered true, though no request for \
        hero was unfinished: the spinner turns for good. Callers got: \(describe(results)).
        """,
        correctly: "hero stops showing as downloading once A's call has ended."
      )
    )
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

  @Test(
    "A request that has returned no longer shows as downloading, even before other work has run")
  func returnedDownloadIsForgottenAtOnce() async throws {
    let scenario = Scenario()
    let client = FakeImageClient(scenario)
    let manager = DownloadManager(client: client)

    let hero = scenario.start(1, "download(cat.png, for: hero)") {
      try await manager.download(.cat, for: "hero")
    }
    try await scenario.settle()
    client.requests.release(1, as: FakeImageClient.Outcome.image)
    // Once the answer is on its way back, a task the manager starts runs late, as it may on a
    // busy pool of threads.
    scenario.holdNewTasks()
    try await scenario.settle()
    let returned = hero.allFinished
    let downloading = try await scenario.call("isDownloading(for: hero)") {
      await manager.isDownloading(for: "hero")
    }
    scenario.letHeldTasksRun()
    _ = try await hero.results()

    #expect(
      !returned || !downloading,
      scenario.explain(
        """
        hero's download returned its image, and right after, before a task the manager had \
        started since could run, hero still showed as downloading.
        """,
        correctly: "once download(cat.png, for: hero) has returned, hero shows no spinner."
      )
    )
  }

  @Test("A download whose image is still being made still counts as running")
  func downloadStillMakingItsImageCountsAsRunning() async throws {
    let scenario = Scenario()
    let client = FakeImageClient(scenario)
    let manager = DownloadManager(client: client)

    let hero = scenario.start(1, "download(cat.png, for: hero)") {
      try await manager.download(.cat, for: "hero")
    }
    try await scenario.settle()
    // Once the bytes are back, A may leave the actor to make its image elsewhere, as in a
    // `@concurrent` function, or to return. Held there, it lets the view ask meanwhile.
    hero.holdWhenTheyLeaveTheActor()
    client.requests.release(1, as: FakeImageClient.Outcome.image)
    try await scenario.settle()
    let leftSoFar = scenario.timesLeftTheActor("A")
    let downloading = try await scenario.call("isDownloading(for: hero)") {
      await manager.isDownloading(for: "hero")
    }
    hero.release()
    _ = try await hero.results()
    // Leaving the actor again once let go means A was held in the middle of its work.
    let wasMakingItsImage = scenario.timesLeftTheActor("A") > leftSoFar

    #expect(
      !wasMakingItsImage || downloading,
      scenario.explain(
        """
        Download #1 had brought back its bytes, and caller A had left the actor in the middle \
        of its work, not yet returned (once let go, it went back to an actor before it \
        returned), when isDownloading(for: hero) answered false.
        """,
        correctly: "hero shows as downloading until download(cat.png, for: hero) returns."
      )
    )
  }

  @Test(
    "A newer request made while the older one is away from the actor with its bytes keeps its key")
  func newerRequestWhileTheOlderIsAwayKeepsItsKey() async throws {
    let scenario = Scenario()
    let client = FakeImageClient(scenario)
    let manager = DownloadManager(client: client)

    let older = scenario.download(.cat, for: "hero", with: manager)
    try await scenario.settle()
    // Once its bytes are back, A may leave the actor, as for a `@concurrent` decode, or to return.
    older.holdWhenTheyLeaveTheActor()
    client.requests.release(1, as: FakeImageClient.Outcome.image)
    try await scenario.settle()
    let newer = scenario.download(.dog, for: "hero", with: manager)
    try await scenario.settle()
    older.release()
    try await scenario.settle()
    let downloading = try await scenario.call("isDownloading(for: hero)") {
      await manager.isDownloading(for: "hero")
    }
    client.open()
    _ = try await older.results() + newer.results()

    #expect(
      downloading,
      scenario.explain(
        """
        Caller B asked for hero while caller A, whose bytes were back, was away from the actor. \
        Once A had finished, isDownloading(for: hero) answered false, though B's download was \
        still running.
        """,
        correctly: "hero shows as downloading for as long as B's download runs."
      )
    )
  }

  @Test("Cancelling a key stops showing it as downloading at once")
  func cancelledKeyStopsShowingAsDownloading() async throws {
    let scenario = Scenario()
    let client = FakeImageClient(scenario)
    client.cancelledRequestsWaitForRelease = true
    let manager = DownloadManager(client: client)

    let download = scenario.download(.cat, for: "hero", with: manager)
    try await scenario.settle()
    try await scenario.call("cancelDownload(for: hero)") {
      await manager.cancelDownload(for: "hero")
    }
    let shown = try await scenario.call("isDownloading(for: hero)") {
      await manager.isDownloading(for: "hero")
    }
    client.open()
    _ = try await download.results()

    #expect(
      !shown,
      scenario.explain(
        """
        cancelDownload(for: hero) had returned, but isDownloading(for: hero) still answered true \
        while the cancelled download #1 wound down: the spinner stays until the cancelled call \
        happens to end.
        """,
        correctly: "hero stops showing as downloading as soon as cancelDownload(for: hero) returns."
      )
    )
  }

  @Test("Downloads for different keys run side by side")
  func differentKeysDoNotReplaceEachOther() async throws {
    let scenario = Scenario()
    let client = FakeImageClient(scenario)
    let manager = DownloadManager(client: client)

    let hero = scenario.download(.cat, for: "hero", with: manager)
    let thumbnail = scenario.download(.dog, for: "thumbnail", with: manager)
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

  @Test("Each key shows as downloading while its own download runs")
  func eachKeyShowsItsOwnDownload() async throws {
    let scenario = Scenario()
    let client = FakeImageClient(scenario)
    let manager = DownloadManager(client: client)

    let hero = scenario.download(.cat, for: "hero", with: manager)
    let thumbnail = scenario.download(.dog, for: "thumbnail", with: manager)
    try await scenario.settle()
    client.release(1)
    _ = try await hero.results()
    let afterHero = try await scenario.showing(manager)
    client.open()
    _ = try await thumbnail.results()
    let afterBoth = try await scenario.showing(manager)

    #expect(
      afterHero == Showing(hero: false, thumbnail: true)
        && afterBoth == Showing(hero: false, thumbnail: false),
      scenario.explain(
        """
        Caller A downloaded cat.png for hero and caller B dog.png for thumbnail, at the same time. \
        Once A's download #1 had finished, isDownloading answered \(afterHero.hero) for hero and \
        \(afterHero.thumbnail) for thumbnail; once B's had finished too, \(afterBoth.hero) and \
        \(afterBoth.thumbnail). Each key should show as downloading exactly while its own download \
        runs, whatever another key's request does meanwhile.
        """,
        correctly:
          "hero stops showing as downloading when download #1 ends, thumbnail when download #2 ends."
      )
    )
  }

  @Test("Cancelling one key leaves another key's download of the same image running")
  func cancellingOneKeyLeavesTheOtherKeyOfTheSameImage() async throws {
    let scenario = Scenario()
    let client = FakeImageClient(scenario)
    let manager = DownloadManager(client: client)

    let hero = scenario.download(.cat, for: "hero", with: manager)
    let thumbnail = scenario.download(.cat, for: "thumbnail", with: manager)
    try await scenario.settle()
    try await scenario.call("cancelDownload(for: hero)") {
      await manager.cancelDownload(for: "hero")
    }
    let shown = try await scenario.call("isDownloading(for: thumbnail)") {
      await manager.isDownloading(for: "thumbnail")
    }
    client.open()
    let result = try await thumbnail.results()[0]
    let cancelled = try await hero.results()[0]

    #expect(
      shown && result.value != nil,
      scenario.explain(
        """
        Callers A and B asked for the same image, cat.png, for two keys, hero and thumbnail. \
        After cancelDownload(for: hero), isDownloading(for: thumbnail) answered \(shown), and in \
        the end \(result). Cancelling hero reached the request for thumbnail, which nobody had \
        cancelled.
        """,
        correctly: "A's call ends with CancellationError; B's keeps running and gets its image."
      )
    )
    #expect(
      cancelled.error is CancellationError || (cancelled.error as? URLError)?.code == .cancelled,
      scenario.explain(
        """
        Callers A and B asked for the same image, cat.png, for two keys, hero and thumbnail, and \
        cancelDownload(for: hero) came before any download had answered; in the end \
        \(cancelled). A request whose key was cancelled ends with a cancellation, whatever another \
        key still needs.
        """,
        correctly:
          "A's call ends with CancellationError, or the URLError(.cancelled) its download threw."
      )
    )
  }
}

@Suite("Chapter 05: every interleaving", .testScheduler, .exposesBug)
struct DownloadManagerExplorationTests {
  @Test(
    "Requests and cancellations for one key, in every order, leave the latest request in charge")
  func everyInterleavingKeepsThePromise() async {
    await Exploration(
      DownloadManagerWorld.self,
      calls: [
        .download(.cat, for: "hero"), .download(.cat, for: "hero"), .cancel("hero"),
      ]
    ).run()
  }
}

/// The manager in a world whose cancelled downloads take a moment to wind down, and then throw
/// `CancellationError` or, as `URLSession`'s do, `URLError(.cancelled)`, with the promise it keeps
/// in every schedule.
struct DownloadManagerWorld: ChapterWorld {
  enum Call: ExploredCall {
    case download(URL, for: String)
    case cancel(String)

    var key: String? {
      switch self {
      case .download(_, let key), .cancel(let key): key
      }
    }

    var description: String {
      switch self {
      case .download(let url, let key): "download(\(url.pictureName), for: \(key))"
      case .cancel(let key): "cancelDownload(for: \(key))"
      }
    }
  }

  let client: FakeImageClient
  let manager: DownloadManager

  init(_ scenario: Scenario) {
    client = FakeImageClient(scenario)
    client.cancelledRequestsWaitForRelease = true
    client.mayEndCancelledLikeURLSession()
    manager = DownloadManager(client: client)
  }

  var fakes: [any FakeService] { [client] }

  func perform(_ call: Call) async throws -> any Sendable {
    switch call {
    case .download(let url, let key): try await manager.download(url, for: key)
    case .cancel(let key): await manager.cancelDownload(for: key)
    }
  }

  /// The latest request for a key owns it: the key shows as downloading exactly while that request
  /// is unfinished and not cancelled; a newer request or a cancellation cancels the download that
  /// is really running for the key; a request replaced before its download answered ends with a
  /// cancellation, Swift's or the one its download threw, and one nobody replaced ends as its
  /// download did (one replaced after its download answered may end either way, as may one whose
  /// client brought the bytes all the same, which this world's client never does); and keys do
  /// not wait for each other.
  func checkPromise(_ moment: Moment<Self>) async {
    let records = client.requests.records
    let downloads = moment.callers.filter {
      if case .download = moment.call(of: $0) { true } else { false }
    }
    let cancels = moment.callers.filter {
      if case .cancel = moment.call(of: $0) { true } else { false }
    }
    /// The requests a caller's download made: in its own task or in a task it created.
    func requests(of caller: CallerRecord) -> [Requests.Record] {
      records.filter { $0.caller == caller.name }
    }

    for key in Set(downloads.compactMap { moment.call(of: $0).key }).sorted() {
      let mine = downloads.filter { moment.call(of: $0).key == key }
      let latest = mine.max { $0.startedAt < $1.startedAt }!
      let cancelledSince = cancels.first {
        $0.key(in: moment) == key && ($0.finishedAt ?? .max) > latest.startedAt
          && $0.hasFinished
      }
      // Whatever replaced or cancelled a download must have cancelled it.
      for older in mine where older.name != latest.name {
        let running = requests(of: older).filter { $0.isInFlight && !$0.wasCancelled }
        moment.expect(
          running.isEmpty, "a newer request cancels the older one",
          """
          Caller \(latest.name)'s request for \(key) replaced caller \(older.name)'s, but \
          \(running.map(client.requests.name(of:)).joined(separator: ", ")) still ran uncancelled.
          """)
      }
      if let cancel = cancelledSince {
        let running = requests(of: latest).filter { $0.isInFlight && !$0.wasCancelled }
        moment.expect(
          running.isEmpty, "cancelling a key cancels its download",
          """
          Caller \(cancel.name) cancelled the download for \(key), but \
          \(running.map(client.requests.name(of:)).joined(separator: ", ")), the download \
          caller \(latest.name) asked for, kept running.
          """)
      }
      // A cancellation held on its way back may have done its work without having finished.
      // Any other caller held, after its answer or away from the actor, is still unfinished, and
      // its key still shows as downloading if it is the latest.
      guard !cancels.contains(where: { $0.isHeld && $0.key(in: moment) == key }) else { continue }
      let expected = !latest.hasFinished && cancelledSince == nil
      let shown = await manager.isDownloading(for: key)
      moment.expect(
        shown == expected, "the latest request owns its key",
        """
        isDownloading(for: \(key)) answered \(shown), but the latest request for \(key), caller \
        \(latest.name)'s, \(latest.hasFinished ? "had finished" : cancelledSince != nil ? "had been cancelled by caller \(cancelledSince!.name)" : "was still running"): \
        the key should show as downloading exactly while its latest request is unfinished.
        """)
    }

    for download in downloads where download.hasFinished {
      // A request replaced or cancelled before its download answered ends with a cancellation:
      // CancellationError, or URLError(.cancelled) when its download threw that. One whose
      // download had already answered may return what it got.
      let answered = requests(of: download).compactMap(\.answeredAt).min() ?? .max
      let stoppedBy = (downloads + cancels).first {
        $0.name != download.name && $0.key(in: moment) == download.key(in: moment)
          && $0.startedAt > download.startedAt && $0.startedAt < answered
          && $0.startedAt < download.finishedAt!
      }
      if let image = download.value(as: Image.self) {
        let source = FakeImageClient.downloadNumber(of: image).flatMap {
          client.requests.record($0)
        }
        moment.expect(
          stoppedBy == nil && source?.caller == download.name, "each request gets its own image",
          """
          Caller \(download.name) got \(describe(image)), \(stoppedBy.map { "though caller \($0.name) had replaced or cancelled its request before its download answered" } ?? "which is not the image its own download brought back").
          """)
      } else if let stoppedBy {
        let endsCancelled =
          download.error is CancellationError
          || (download.error as? URLError)?.code == .cancelled
        moment.expect(
          endsCancelled, "a replaced request ends with a cancellation",
          """
          Caller \(stoppedBy.name) replaced or cancelled caller \(download.name)'s request before \
          its download answered, so \(download.name) should end with a cancellation \
          (CancellationError, or the URLError(.cancelled) its download threw), but it got \
          \(moment.describeResult(download)).
          """)
      } else if let error = download.error {
        // Nobody stopped it before its download answered: it ends as its own download did, or,
        // if a newer request or a cancellation came while its caller had yet to resume, it may
        // also end with a cancellation, as the promise leaves open.
        let own = requests(of: download).last
        let asItsDownload =
          (own?.outcome == FakeImageClient.Outcome.failure.rawValue && error is FakeNetworkError)
          || (own?.outcome == FakeImageClient.Outcome.undecodableData.rawValue
            && error is ImageDecodingError)
        let stoppedLate = (downloads + cancels).contains {
          $0.name != download.name && $0.key(in: moment) == download.key(in: moment)
            && $0.startedAt > download.startedAt && $0.startedAt < download.finishedAt!
        }
        let cancelledLate =
          stoppedLate
          && (error is CancellationError || (error as? URLError)?.code == .cancelled)
        moment.expect(
          asItsDownload || cancelledLate, "a request nobody stopped ends as its download did",
          """
          \(stoppedLate ? "Nobody replaced or cancelled caller \(download.name)'s request before its download answered" : "Nobody replaced or cancelled caller \(download.name)'s request"), and \
          \(own.map { "\(client.requests.name(of: $0)) ended as \($0.outcome ?? "nothing")" } ?? "it started no download"), \
          yet \(download.name) got \(moment.describeResult(download)): a request that nobody \
          stopped ends the way its own download did, with its image or with the error it threw.
          """)
      }
    }
    moment.expectNobodyWaitsForAnotherKey(
      client.requests,
      subject: { record in
        downloads.first { $0.name == record.caller }?.key(in: moment) ?? record.key
      })
  }
}

extension CallerRecord {
  fileprivate func key(in moment: Moment<DownloadManagerWorld>) -> String? {
    moment.call(of: self).key
  }
}

extension Scenario {
  /// Starts one caller who downloads `url` for `key`.
  fileprivate func download(
    _ url: URL, for key: String, with manager: DownloadManager
  ) -> Callers<Image> {
    start(1, "download(\(url.pictureName), for: \(key))") {
      try await manager.download(url, for: key)
    }
  }

  /// Whether hero and thumbnail show as downloading, asked as one step of the timeline.
  fileprivate func showing(_ manager: DownloadManager) async throws -> Showing {
    try await call("isDownloading(for: hero) and isDownloading(for: thumbnail)") {
      Showing(
        hero: await manager.isDownloading(for: "hero"),
        thumbnail: await manager.isDownloading(for: "thumbnail"))
    }
  }
}

/// What the screen shows for its two keys, drawn in a timeline as `hero: true, thumbnail: false`.
private struct Showing: Equatable, Sendable, CustomTestStringConvertible {
  let hero: Bool
  let thumbnail: Bool

  var testDescription: String { "hero: \(hero), thumbnail: \(thumbnail)" }
}
