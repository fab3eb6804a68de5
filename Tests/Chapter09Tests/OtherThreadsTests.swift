import Services
import Testing
import WorkbookTestSupport

@testable import Chapter09

@Suite("Chapter 09: rows cancelled from other threads")
struct AvatarLoaderThreadTests {
  @Test("Rows cancelled on other threads while their download finishes each hear back once")
  func rowsCancelledOnOtherThreads() async throws {
    // Two rows are cancelled, each on a thread of its own, while a third thread lets the shared
    // download finish: the cancellation handlers run on the cancelling threads, beside the
    // loader's own work. Whether or not they collide in a round, state they share with it without
    // synchronising is a data race, which `Scripts/check-threads` reports. Who gets what is the
    // exploration's to check; here every row must at least hear back, once.
    for _ in 0..<OtherThreads.rounds {
      let scenario = Scenario()
      let client = FakeImageClient(scenario)
      let loader = AvatarLoader(client: client)
      let rows = scenario.start(3, "avatar(at: cat.png)") { try await loader.avatar(at: .cat) }
      try await scenario.settle()

      await onOtherThreads([rows.cancellation("A"), rows.cancellation("B"), { client.open() }])
      // Throws, with the timeline, if a row never hears back; a row resumed twice stops the run.
      _ = try await rows.results()
    }
  }
}
