// Decodes off the main actor in a detached task, which carries no caller's name, and shows the
// hits only if the view has not cancelled the search meanwhile: right, and held in its decode as
// any other design is.
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
      let decoder = decoder
      // A big answer takes a while to decode: keep it off the main actor.
      let found = try await Task.detached { try decoder.hits(in: answer) }.value
      // Newer text cancelled this search while it waited or decoded: its hits are out of date.
      guard !Task.isCancelled else { return }
      hits = found
    } catch {
      // A search that fails leaves the last hits on screen.
    }
  }
}
