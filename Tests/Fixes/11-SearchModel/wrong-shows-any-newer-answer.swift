// Expected to fail: Typing two queries, answered in every order, one failing at most, never shows older hits
// Numbers the searches and shows any answer newer than the one on screen, so a search the user
// typed past still changes the screen when it answers before the newest does.
import Foundation
import Services

@MainActor
public final class SearchModel {
  public private(set) var hits: [SearchHit] = []
  private let service: any SearchService
  private let decoder: any SearchDecoder
  private var started = 0
  private var shownNumber = 0

  public nonisolated init(service: any SearchService, decoder: any SearchDecoder) {
    self.service = service
    self.decoder = decoder
  }

  public func search(for query: String) async {
    started += 1
    let mine = started
    do {
      let answer = try await service.results(for: query)
      let found = try await Self.decode(answer, with: decoder)
      guard mine > shownNumber else { return }
      shownNumber = mine
      hits = found
    } catch {
    }
  }

  private nonisolated static func decode(_ answer: Data, with decoder: any SearchDecoder)
    async throws -> [SearchHit]
  {
    try decoder.hits(in: answer)
  }
}
