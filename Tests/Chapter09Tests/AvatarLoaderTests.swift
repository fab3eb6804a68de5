import Foundation
import ScheduleExplorer
import Services
import Testing
import WorkbookTestSupport

@testable import Chapter09

@Suite("Chapter 09: a cancelled caller leaves alone", .testScheduler, .exposesBug)
struct SharedCancellationTests {
  @Test("Cancelling the caller who started a download does not fail the others")
  func cancellingTheFirstCallerSparesTheOthers() async throws {
    let scenario = Scenario()
    let client = FakeImageClient(scenario)
    let loader = AvatarLoader(client: client)

    let rows = scenario.start(3, "avatar(at: cat.png)") { try await loader.avatar(at: .cat) }
    try await scenario.settle()
    rows.cancel("A")
    _ = await scenario.wait { rows.hasFinished("A") }
    let firstCancelled = client.wasCancelled(1)
    client.open()
    let results = try await rows.results()
    let othersGotImages = results[1...].allSatisfy { $0.value != nil }

    #expect(
      othersGotImages,
      scenario.explain(
        """
        Row A scrolled away and its call was cancelled. Rows B and C were still on screen, and \
        \(describe(Array(results[1...]))). A's cancellation handler cancelled the shared \
        download, which was not A's alone: everyone waiting on it lost it.
        """,
        correctly: "A leaves with CancellationError; download #1 goes on and B and C get image #1."
      )
    )
    if othersGotImages {
      #expect(
        !firstCancelled && client.downloads(of: .cat) == 1,
        scenario.explain(
          """
          Row A scrolled away and its call was cancelled, while rows B and C still waited for \
          download #1. Download #1 was \(firstCancelled ? "" : "not ")cancelled, and \
          \(client.downloads(of: .cat)) downloads of cat.png started in all; \
          \(describe(Array(results[1...]))).
          """,
          correctly: "download #1 goes on, since B and C still want it, and B and C get image #1."
        )
      )
    }
  }

  @Test("A caller who is cancelled while waiting returns at once")
  func cancelledWaiterReturnsAtOnce() async throws {
    let scenario = Scenario()
    let client = FakeImageClient(scenario)
    let loader = AvatarLoader(client: client)

    let rows = scenario.start(2, "avatar(at: cat.png)") { try await loader.avatar(at: .cat) }
    try await scenario.settle()
    rows.cancel("B")
    let returnedAtOnce = await scenario.wait { rows.hasFinished("B") }
    client.open()
    let results = try await rows.results()
    let threwCancellation =
      results[1].error is CancellationError || (results[1].error as? URLError)?.code == .cancelled

    #expect(
      returnedAtOnce && threwCancellation,
      scenario.explain(
        """
        Row B was cancelled while it waited for row A's download, but \
        \(returnedAtOnce ? "it got \(results[1])" : "it did not return until the download finished"). \
        `await task.value` does not end when the awaiting task is cancelled: the cancellation of \
        B reaches nothing that B is waiting on.
        """,
        correctly:
          "B throws CancellationError, or URLError(.cancelled), at once; A still gets image #1."
      )
    )
  }

  @Test("A caller who arrives after everyone gave up gets a fresh download")
  func callerAfterAnAbandonedDownloadStartsAgain() async throws {
    let scenario = Scenario()
    let client = FakeImageClient(scenario)
    let loader = AvatarLoader(client: client)
    // A cancelled transfer takes a moment to wind down; the next row arrives in that moment.
    client.cancelledRequestsWaitForRelease = true

    let rows = scenario.start(1, "avatar(at: cat.png)") { try await loader.avatar(at: .cat) }
    try await scenario.settle()
    rows.cancel()
    let cancelled = await scenario.wait { client.wasCancelled(1) }
    try #require(cancelled, "cancelling the only row should cancel download #1")
    let later = scenario.start(1, "avatar(at: cat.png)") { try await loader.avatar(at: .cat) }
    try await scenario.settle()
    client.open()
    let results = try await rows.results() + later.results()

    #expect(
      results[1].value == FakeImageClient.image(number: 2),
      scenario.explain(
        """
        Row A scrolled away and download #1 was cancelled. Row B appeared while that download was \
        still winding down, and \(results[1]). B had joined a download that nobody wanted any \
        more, and shared its end.
        """,
        correctly: "B gets image #2, from a download of its own."
      )
    )
  }

  @Test("A row that asks while a given-up download winds down gets a download of its own")
  func rowAskingDuringTheWindDownGetsAFreshDownload() async throws {
    let scenario = Scenario()
    let client = FakeImageClient(scenario)
    client.cancelledRequestsWaitForRelease = true
    let loader = AvatarLoader(client: client)

    let rows = scenario.start(2, "avatar(at: cat.png)") { try await loader.avatar(at: .cat) }
    try await scenario.settle()
    rows.cancel("A")
    try await scenario.settle()
    rows.cancel("B")
    try await scenario.settle()
    // Download #1 was given up and winds down; C asks before it has ended.
    let later = scenario.start(1, "avatar(at: cat.png)") { try await loader.avatar(at: .cat) }
    try await scenario.settle()
    client.open()
    let results = try await rows.results() + later.results()

    #expect(
      results[2].value != nil,
      scenario.explain(
        """
        Rows A and B both gave up download #1, and row C asked for cat.png while it wound down. \
        Nobody cancelled C, yet C \(results[2]).
        """,
        correctly: "C gets an image, from a download of its own."
      )
    )
  }

  @Test("Rows cancelled one after another, in the order they asked, leave the last row its image")
  func rowsCancelledInTurnLeaveTheLastRowItsImage() async throws {
    let scenario = Scenario()
    let client = FakeImageClient(scenario)
    let loader = AvatarLoader(client: client)

    let rows = scenario.start(3, "avatar(at: cat.png)") { try await loader.avatar(at: .cat) }
    try await scenario.settle()
    rows.cancel("A")
    try await scenario.settle()
    rows.cancel("B")
    try await scenario.settle()
    client.open()
    let results = try await rows.results()

    #expect(
      results[2].value == FakeImageClient.image(number: 1),
      scenario.explain(
        """
        Rows A and B scrolled away, A first, while row C stayed on screen, waiting for download \
        #1: \(describe(Array(results[2...]))).
        """,
        correctly: "A and B leave with CancellationError; C gets image #1."
      )
    )
  }
}

@Suite("Chapter 09: what the loader must keep doing", .testScheduler)
struct AvatarLoaderGuardTests {
  @Test("Callers who ask at once share one download")
  func callersShareOneDownload() async throws {
    let scenario = Scenario()
    let client = FakeImageClient(scenario)
    let loader = AvatarLoader(client: client)

    let rows = scenario.start(3, "avatar(at: cat.png)") { try await loader.avatar(at: .cat) }
    try await scenario.settle()
    client.open()
    let results = try await rows.results()

    #expect(
      client.downloads(of: .cat) == 1,
      scenario.explain(
        "3 rows asked for cat.png at once, and \(client.downloads(of: .cat)) downloads started.",
        correctly: "one download, shared by the three rows."))
    #expect(
      results.allSatisfy { $0.value == FakeImageClient.image(number: 1) }, "\(describe(results))")
  }

  // In both orders: the row that started the download may leave first or last.
  @Test(
    "When every caller has given up, the download is cancelled",
    arguments: [["B", "A"], ["A", "B"]])
  func lastCallerOutCancelsTheDownload(order: [String]) async throws {
    let scenario = Scenario()
    let client = FakeImageClient(scenario)
    let loader = AvatarLoader(client: client)

    let rows = scenario.start(2, "avatar(at: cat.png)") { try await loader.avatar(at: .cat) }
    try await scenario.settle()
    for row in order { rows.cancel(row) }
    let downloadCancelled = await scenario.wait { client.wasCancelled(1) }
    client.open()
    let results = try await rows.results()

    #expect(
      downloadCancelled,
      scenario.explain(
        """
        Both rows scrolled away, \(order[0]) first, but download #1 was not cancelled: it runs \
        on for nobody. Rows got \(describe(results)).
        """,
        correctly: "when the last waiting row leaves, download #1 is cancelled."
      )
    )
  }
}

@Suite("Chapter 09: more rows, more pictures", .testScheduler)
struct AvatarLoaderMoreRowsTests {
  @Test("Cancelling the only row of one picture cancels its download, while another picture waits")
  func lastRowOfOnePictureCancelsItsDownload() async throws {
    let scenario = Scenario()
    let client = FakeImageClient(scenario)
    let loader = AvatarLoader(client: client)

    let cat = scenario.start(1, "avatar(at: cat.png)") { try await loader.avatar(at: .cat) }
    try await scenario.settle()
    let dog = scenario.start(1, "avatar(at: dog.png)") { try await loader.avatar(at: .dog) }
    try await scenario.settle()
    cat.cancel()
    let cancelled = await scenario.wait { client.wasCancelled(1) }
    client.open()
    let results = try await cat.results() + dog.results()

    #expect(
      cancelled,
      scenario.explain(
        """
        The only row showing cat.png scrolled away while a row showing dog.png still waited, \
        but download #1, of cat.png, was not cancelled: it runs on for nobody. Rows got \
        \(describe(results)).
        """,
        correctly: "download #1 is cancelled, and the dog.png row still gets its image."
      )
    )
  }

  @Test("A row cancelled while it is away from the loader returns once it is back")
  func rowCancelledWhileAwayReturns() async throws {
    let scenario = Scenario()
    let client = FakeImageClient(scenario)
    let loader = AvatarLoader(client: client)

    let row = scenario.start(1, "avatar(at: cat.png)") { try await loader.avatar(at: .cat) }
    // The row is stopped the first time it leaves the loader, whatever it leaves for, and is
    // cancelled there; then it is let go.
    row.holdWhenTheyLeaveTheActor()
    try await scenario.settle()
    let wasAway = scenario.callers.contains { $0.name == "A" && $0.isHeld } && !row.allFinished
    row.cancel()
    try await scenario.settle()
    row.release()
    let returned = await scenario.wait { row.allFinished }
    client.open()
    let results = try await row.results()

    #expect(
      returned,
      scenario.explain(
        """
        Row A was cancelled \(wasAway ? "while it was away from the loader" : "while it waited"), \
        and once it was let go it still did not return: it went on waiting for download #1, \
        which nobody wanted any more. In the end, \(describe(results)).
        """,
        correctly: "A returns as soon as it is let go."
      )
    )
  }

  @Test(
    "Two avatars whose addresses differ only in their path or their query are two downloads",
    arguments: zip(
      [
        URL(string: "https://images.example.com/alice/avatar.png")!,
        URL(string: "https://images.example.com/avatar.png?size=small")!,
      ],
      [
        URL(string: "https://images.example.com/bob/avatar.png")!,
        URL(string: "https://images.example.com/avatar.png?size=large")!,
      ]))
  func addressesThatDifferInPathOrQueryAreTwoPictures(_ first: URL, _ second: URL) async throws {
    /// `alice/avatar.png`, `avatar.png?size=small`: what sets the address apart.
    func shortly(_ url: URL) -> String {
      String(url.path.dropFirst()) + (url.query.map { "?\($0)" } ?? "")
    }
    let scenario = Scenario()
    let client = FakeImageClient(scenario)
    let loader = AvatarLoader(client: client)

    let one = scenario.start(1, "avatar(at: \(shortly(first)))") {
      try await loader.avatar(at: first)
    }
    try await scenario.settle()
    let other = scenario.start(1, "avatar(at: \(shortly(second)))") {
      try await loader.avatar(at: second)
    }
    try await scenario.settle()
    client.open()
    let results = try await one.results() + other.results()

    #expect(
      client.downloads(of: second) == 1 && results[0].value != results[1].value,
      scenario.explain(
        """
        \(first) and \(second) are two pictures that share a file name, yet \
        \(client.downloads(of: second)) downloads of the second started, and rows got \
        \(describe(results)).
        """,
        correctly: "each avatar has a download of its own, and each row gets its own image."
      )
    )
  }

  @Test("A row cancelled before its call runs leaves the download another row waits for")
  func rowCancelledBeforeItAsksLeavesTheOtherRowsDownload() async throws {
    let scenario = Scenario()
    let client = FakeImageClient(scenario)
    let loader = AvatarLoader(client: client)

    let waiting = scenario.start(1, "avatar(at: cat.png)") { try await loader.avatar(at: .cat) }
    try await scenario.settle()
    // B's task is cancelled before it asks: a row that scrolls away as soon as it appears.
    let row = scenario.start(1, "avatar(at: cat.png)") {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await loader.avatar(at: .cat)
    }
    try await scenario.settle()
    client.open()
    let results = try await waiting.results() + row.results()

    #expect(
      results[0].value != nil,
      scenario.explain(
        """
        Row A waited for cat.png, and row B, whose task was cancelled before it asked, came and \
        went. A was never cancelled, yet \(results[0]).
        """,
        correctly: "A gets its image; B returns at once, with CancellationError or an image."
      )
    )
  }

  // With a row that waits for cat.png and then scrolls away too, and with the cancelled row alone.
  @Test(
    "A row cancelled before its call runs leaves no download running for nobody",
    arguments: [true, false])
  func rowCancelledBeforeItAsksLeavesNoDownloadForNobody(withAWaitingRow: Bool) async throws {
    let scenario = Scenario()
    let client = FakeImageClient(scenario)
    let loader = AvatarLoader(client: client)

    let waiting =
      withAWaitingRow
      ? scenario.start(1, "avatar(at: cat.png)") { try await loader.avatar(at: .cat) } : nil
    try await scenario.settle()
    let row = scenario.start(1, "avatar(at: cat.png)") {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await loader.avatar(at: .cat)
    }
    try await scenario.settle()
    waiting?.cancel()
    @Sendable func runningForNobody() -> [Int] {
      client.requests.records.filter { $0.isInFlight && !client.wasCancelled($0.number) }
        .map(\.number)
    }
    _ = await scenario.wait { runningForNobody().isEmpty }
    let running = runningForNobody()
    client.open()
    let results = try await (waiting?.results() ?? []) + row.results()
    let who =
      withAWaitingRow
      ? "Row A waited for cat.png, and row B, whose task was cancelled before it asked, came and "
        + "went; then A scrolled away."
      : "Row A, whose task was cancelled before it asked for cat.png, came and went."
    let downloads = running.map { "download #\($0)" }.joined(separator: " and ")

    #expect(
      running.isEmpty,
      scenario.explain(
        """
        \(who) No row wanted cat.png any more, but \(downloads) was not cancelled: it runs on \
        for nobody. Rows got \(describe(results)).
        """,
        correctly: "once every row has left, no download of cat.png runs on uncancelled."
      )
    )
  }

  @Test("A row cancelled before its call runs returns at once")
  func rowCancelledBeforeItAsksReturns() async throws {
    let scenario = Scenario()
    let client = FakeImageClient(scenario)
    let loader = AvatarLoader(client: client)

    // The row's task is cancelled before it asks: a row that scrolls away as soon as it appears.
    let row = scenario.start(1, "avatar(at: cat.png)") {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await loader.avatar(at: .cat)
    }
    try await scenario.settle()
    let returned = row.allFinished
    client.open()
    let results = try await row.results()

    #expect(
      returned,
      scenario.explain(
        """
        The row's task was cancelled before it asked for cat.png, and it had not returned once \
        everything else had settled: it was still waiting. Rows got \(describe(results)).
        """,
        correctly: "the row returns at once, with CancellationError or an image."
      )
    )
  }
}

@Suite("Chapter 09: every interleaving", .testScheduler, .exposesBug)
struct AvatarLoaderExplorationTests {
  @Test(
    "Three rows, with at most one unusual outcome and one cancellation, share downloads and leave alone"
  )
  func everyInterleavingKeepsThePromise() async {
    let row = ImageCall("avatar(at:)", .cat)
    await Exploration(
      AvatarLoaderWorld.self, calls: [row, row, row],
      // Nor is a row held where it steps off the loader. A row whose image comes through a
      // continuation that a task resumes, and that then steps off (to a `@concurrent` function,
      // or to another actor), left the loader at one settled moment in one run and at the next
      // in another, and the exploration took the right design for one that changes as it runs.
      bounds: ExplorationBounds(holds: 0, holdsOffTheActor: 0, cancellations: 1, lateTasks: 1)
    ).run()
  }
}

/// The loader in a world whose cancelled downloads take a moment to wind down, and then throw
/// `CancellationError` or, as `URLSession`'s do, `URLError(.cancelled)`, with the promise it keeps
/// in every schedule.
struct AvatarLoaderWorld: ChapterWorld {
  let client: FakeImageClient
  let loader: AvatarLoader

  init(_ scenario: Scenario) {
    client = FakeImageClient(scenario)
    client.cancelledRequestsWaitForRelease = true
    // A cancelled download may end as URLSession's do, with URLError(.cancelled).
    client.mayEndCancelledLikeURLSession()
    loader = AvatarLoader(client: client)
  }

  var fakes: [any FakeService] { [client] }

  func perform(_ call: ImageCall) async throws -> any Sendable {
    try await loader.avatar(at: call.url)
  }

  /// Rows that ask while a download runs share it; a cancelled row returns at once and nobody
  /// else notices; a download that nobody waits for any more is cancelled, and never joined.
  func checkPromise(_ moment: Moment<Self>) async {
    let requests = client.requests
    moment.expectOneRequestAtATime(per: requests, keepsSuccess: false, succeeded: { !$0.threw })
    moment.expectFailuresAreFresh(
      requests, failed: { $0.outcome == "error" || $0.outcome == "garbage" })
    for caller in moment.callers where !caller.wasCancelled {
      moment.expect(
        !moment.isCancellation(caller.error), "nobody else notices a cancellation",
        """
        Caller \(caller.name) was never cancelled, yet it threw \(describe(caller.error!)): \
        another row's cancellation ended the download it was waiting for.
        """)
    }
    guard !moment.someoneIsHeld else { return }
    // A cancelled row may wait for a download it cancelled to wind down, but never for one that
    // goes on for others. Which download a row waits for is the loader's own business, so a row
    // is blamed only when no cancelled download of its avatar is still winding down.
    for (caller, key) in moment.keyed where caller.wasCancelled && !caller.hasFinished {
      let windingDown = requests.records.contains {
        $0.key == key && $0.isInFlight && $0.wasCancelled
      }
      let live = requests.records.first { $0.key == key && $0.isInFlight && !$0.wasCancelled }
      moment.expect(
        windingDown || live == nil, "a cancelled row returns at once",
        """
        Caller \(caller.name) was cancelled, but it had not returned once everything else had \
        settled, while \(live.map(requests.name(of:)) ?? "a download") of its avatar went on for \
        the other rows, and no cancelled download of it was still winding down.
        """)
    }
    for record in requests.records where record.isInFlight && !record.wasCancelled {
      let waiting = moment.keyed.filter {
        $0.key == record.key && !$0.caller.hasFinished && !$0.caller.wasCancelled
      }
      moment.expect(
        !waiting.isEmpty, "a download nobody wants is cancelled",
        """
        \(requests.name(of: record)) is still running, but every row that asked for \
        \(record.key) has returned or been cancelled: nobody will ever use it.
        """)
    }
  }
}
