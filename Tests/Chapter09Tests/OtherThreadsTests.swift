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
    // has its answer: the download hands the answer back, and the cancellations run just before
    // the loader's next job, which takes it in, with nothing ordering the two. So the
    // cancellation handlers, which run on the cancelling threads, meet both each other and the
    // loader's work on the answer: state they share without synchronising is a data race, which
    // `Scripts/check-threads` reports. Who gets what is the exploration's to check; here every
    // row must at least hear back, once.
    for _ in 0..<OtherThreads.rounds {
      let scenario = Scenario()
      let cancellations = Locked<[@Sendable () -> Void]>([])
      let threads = Locked<OtherThreads?>(nil)
      let fake = FakeImageClient(scenario)
      let client = AnsweringMeanwhile(fake) {
        let work = cancellations.withLock { cancellations in
          defer { cancellations = [] }
          return cancellations
        }
        if !work.isEmpty { threads.withLock { $0 = OtherThreads.beforeNextJob(work) } }
      }
      let loader = AvatarLoader(client: client)
      let rows = scenario.start(3, "avatar(at: cat.png)") { try await loader.avatar(at: .cat) }
      cancellations.withLock { $0 = [rows.cancellation("A"), rows.cancellation("B")] }
      try await scenario.settle()

      fake.open()
      // Throws, with the timeline, if a row never hears back; a row resumed twice stops the run.
      _ = try await rows.results()
      await threads.withLock { $0 }?.finished()
    }
  }
}

/// An image client that, once a download has its answer, calls `meanwhile` before it hands the
/// answer back.
private struct AnsweringMeanwhile: ImageClient {
  let client: FakeImageClient
  let meanwhile: @Sendable () -> Void

  init(_ client: FakeImageClient, meanwhile: @escaping @Sendable () -> Void) {
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
    meanwhile()
    return try answer.get()
  }
}
