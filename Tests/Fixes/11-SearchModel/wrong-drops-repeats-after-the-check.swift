// Expected to fail: A search typed past while it is away from the main actor after its decode shows nothing
// Checks for cancellation after the decode, then awaits a second `@concurrent` step, which drops
// repeated hits, before it shows them: a search typed past during that step still shows its hits.
import Foundation
import Services

/// The model behind a search screen. The view calls `search(for:)` from a task tied to the text
/// field, as SwiftUI's `.task(id:)` does: typing starts a search for the new text and cancels the
/// task of the one before.
@MainActor
public final class SearchModel {
  /// What the screen lists.
  public private(set) var hits: [SearchHit] = []
  private let service: any SearchService
  private let decoder: any SearchDecoder

  // Creating the model needs no main-actor state, so any code may create one.
  public nonisolated init(service: any SearchService, decoder: any SearchDecoder) {
    self.service = service
    self.decoder = decoder
  }

  /// Searches for `query` and shows what the backend found.
  public func search(for query: String) async {
    do {
      let answer = try await service.results(for: query)
      let found = try await Self.decode(answer, with: decoder)
      // Every `await` above let the main actor run other jobs, among them the search for newer
      // text, which cancelled this one. A cancelled search's hits are out of date: leave the
      // screen to the newer search.
      guard !Task.isCancelled else { return }
      // The backend can list a title twice; drop the repeats, also away from the main actor.
      hits = await Self.withoutRepeats(found)
    } catch {
      // A search that fails leaves the last hits on screen.
    }
  }

  /// `hits` in their order, each title once.
  @concurrent
  private nonisolated static func withoutRepeats(_ hits: [SearchHit]) async -> [SearchHit] {
    var seen = Set<SearchHit>()
    return hits.filter { seen.insert($0).inserted }
  }

  /// Decodes away from the main actor, so that the screen stays responsive meanwhile.
  @concurrent
  private nonisolated static func decode(
    _ answer: Data, with decoder: any SearchDecoder
  ) async throws -> [SearchHit] {
    try decoder.hits(in: answer)
  }
}
