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
      hits = try decoder.hits(in: answer)
    } catch {
      // A search that fails leaves the last hits on screen.
    }
  }
}
