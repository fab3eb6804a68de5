// Expected to fail: Typing on while one search is held in its decode never shows older hits
// Decodes off the main actor in a detached task, and checks for newer text once the answer has
// come, but not again after the decode, which can take a while. Until the decoder could tell whose
// answer it held, a decode in a `Task.detached` was never held, and this passed.
import Foundation
import Services

/// The model behind a search screen. The view calls `search(for:)` from a task tied to the text
/// field, as SwiftUI's `.task(id:)` does: typing starts a search for the new text and cancels the
/// task of the one before.
@MainActor
public final class SearchModel {
  /// What the screen lists.
  public private(set) var hits: [SearchHit] = []
  private var newest = 0
  private let service: any SearchService
  private let decoder: any SearchDecoder

  // Creating the model needs no main-actor state, so any code may create one.
  public nonisolated init(service: any SearchService, decoder: any SearchDecoder) {
    self.service = service
    self.decoder = decoder
  }

  /// Searches for `query` and shows what the backend found.
  public func search(for query: String) async {
    newest += 1
    let search = newest
    do {
      let answer = try await service.results(for: query)
      // Newer text was typed while the backend answered: its search shows the hits.
      guard search == newest, !Task.isCancelled else { return }
      let decoder = decoder
      // A big answer takes a while to decode: keep it off the main actor.
      hits = try await Task.detached { try decoder.hits(in: answer) }.value
    } catch {
      // A search that fails leaves the last hits on screen.
    }
  }
}
