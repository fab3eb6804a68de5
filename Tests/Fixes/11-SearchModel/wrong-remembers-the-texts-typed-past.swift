// Expected to fail: Text typed again after searches that never answered shows its hits
// Remembers the texts the user has typed past, by value, and shows no answer for them. Text typed
// again after other text is such a text: its newest search, though it is the field's, is never
// shown.
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

  /// The texts the user has typed past, whose late answers must not be shown.
  private var typedPast: Set<String> = []
  private var current: String?

  /// Searches for `query` and shows what the backend found.
  public func search(for query: String) async {
    if let current, current != query { typedPast.insert(current) }
    current = query
    do {
      let answer = try await service.results(for: query)
      let found = try await Self.decode(answer, with: decoder)
      // Every `await` above let the main actor run other jobs, among them the search for newer
      // text. A search for text the user has typed past is out of date: leave the screen to the
      // newer search.
      guard !typedPast.contains(query) else { return }
      hits = found
    } catch {
      // A search that fails leaves the last hits on screen.
    }
  }

  /// Decodes away from the main actor, so that the screen stays responsive meanwhile.
  @concurrent
  private nonisolated static func decode(
    _ answer: Data, with decoder: any SearchDecoder
  ) async throws -> [SearchHit] {
    try decoder.hits(in: answer)
  }
}
