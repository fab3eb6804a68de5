import Foundation
import ScheduleExplorer
import Services
import Testing
import WorkbookTestSupport

@testable import Chapter09

@Suite("Chapter 09: rows cancelled from other threads", .testScheduler)
struct AvatarLoaderThreadTests {
  @Test("Rows cancelled on other threads while their download finishes each hear back once")
  func rowsCancelledOnOtherThreads() async throws {
    // Two rows are cancelled, each on a thread of its own, at the moment their shared download
    // has its answer: the download hands the answer back only once both cancellations have run,
    // so the cancellation handlers, which run on the cancelling threads, meet the loader's work
    // on the answer. State they share with it without synchronising is a data race, which
    // `Scripts/check-threads` reports. Who gets what is the exploration's to check; here every
    // row must at least hear back, once.
    for _ in 0..<OtherThreads.rounds {
      let scenario = Scenario()
      let cancellations = Locked<[@Sendable () -> Void]>([])
      let fake = FakeImageClient(scenario)
      let client = AnsweringMeanwhile(fake) {
        cancellations.withLock { cancellations in
          defer { cancellations = [] }
          return cancellations
        }
      }
      let loader = AvatarLoader(client: client)
      let rows = scenario.start(3, "avatar(at: cat.png)") { try await loader.avatar(at: .cat) }
      cancellations.withLock { $0 = [rows.cancellation("A"), rows.cancellation("B")] }
      try await scenario.settle()

      fake.open()
      // Throws, with the timeline, if a row never hears back; a row resumed twice stops the run.
      _ = try await rows.results()
    }
  }
}

/// An image client that, once a download has its answer, runs `meanwhile`'s work on threads of
/// their own and hands the answer back only when that work is done, without ordering anything
/// after it (see ``OtherThreads/waitWithoutOrdering()``).
private struct AnsweringMeanwhile: ImageClient {
  let client: FakeImageClient
  let meanwhile: @Sendable () -> [@Sendable () -> Void]

  init(_ client: FakeImageClient, meanwhile: @escaping @Sendable () -> [@Sendable () -> Void]) {
    self.client = client
    self.meanwhile = meanwhile
  }

  func data(from url: URL) async throws -> Data {
    let answer: Result<Data, any Error>
    do {
      answer = .success(try await client.data(from: url))
    } catch {
      answer = .failure(error)
    }
    let work = meanwhile()
    if !work.isEmpty { OtherThreads(work).waitWithoutOrdering() }
    return try answer.get()
  }
}
