import Foundation
import ScheduleExplorer
import Services
import Testing

/// A hundred pictures with different addresses, asked for all at once.
///
/// A cache that makes its callers take turns in a fixed number of groups, picked by a hash of the
/// address, keeps the callers of two pictures waiting for each other only when their addresses
/// fall in one group, and which do depends on the hash seed of the process: with two pictures, such
/// a cache passes on some runs and fails on others. With more addresses than groups, two of them
/// always share one, so a hundred make it fail on every run, for any number of groups up to 99.
public enum DifferentPictures {
  /// `photo-1.png` to `photo-100.png` on the course's image server.
  public static let addresses: [URL] = (1...100).map {
    URL(string: "https://images.example.com/photo-\($0).png")!
  }

  /// Starts one caller of `image` for each of ``addresses``, and expects every one of their
  /// downloads to be under way before any of them finishes, every caller to get an image, and a
  /// later call for the first picture to download nothing: a cache that keeps fewer pictures than
  /// a hundred has let it go by then.
  public static func expectAllDownloadAtOnce(
    in scenario: Scenario, client: FakeImageClient,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ image: @escaping @Sendable (URL) async throws -> Image
  ) async throws {
    let callers = addresses.map { address in
      scenario.start(1, "image(for: \(address.pictureName))") { try await image(address) }
    }
    let allRunning = await scenario.wait { client.requestsInFlight >= addresses.count }
    let waiting = addresses.filter { client.downloads(of: $0) == 0 }.map(\.pictureName)
    client.open()
    var results: [CallerResult<Image>] = []
    for caller in callers { results += try await caller.results() }
    let withoutImage = results.filter { $0.value == nil }.count
    let first = addresses[0]
    let again = try await scenario.call("image(for: \(first.pictureName))") {
      try await image(first)
    }

    let named = waiting.prefix(3).joined(separator: ", ")
    let more = waiting.count > 3 ? " and \(waiting.count - 3) more" : ""
    #expect(
      allRunning,
      """
      A hundred callers each asked at once for a picture of their own, photo-1.png to \
      photo-100.png, and at most \(client.mostRequestsAtOnce) of their downloads ran at once. The callers of the other \(waiting.count) (\(named)\(more)) waited for pictures \
      they had not asked for. Expected: all hundred downloads under way together.
      """,
      sourceLocation: sourceLocation
    )
    #expect(
      withoutImage == 0,
      "every caller should get its picture; \(withoutImage) of the hundred got none",
      sourceLocation: sourceLocation
    )
    #expect(
      client.downloads(of: first) == 1 && again == results[0].value,
      """
      Once all hundred callers had their pictures, photo-1.png was asked for again: the cache \
      downloaded it \(client.downloads(of: first)) times in all, and the caller got \
      \(again.testDescription) where the first caller got \
      \(results[0].value.map(\.testDescription) ?? "nothing"). \
      Expected: no second download, and the same image.
      """,
      sourceLocation: sourceLocation
    )
  }
}
