// Expected to fail: Typing two queries, answered in every order, one failing at most, never shows older hits
// Keeps the hits of a search the user typed past, and shows them when the newest search fails:
// after "sw" was shown, "swi" failing brings back the hits for "s".
import Foundation
import Services

@MainActor
public final class SearchModel {
  public private(set) var hits: [SearchHit] = []
  private let service: any SearchService
  private let decoder: any SearchDecoder
  private var generation = 0
  private var fallback: [SearchHit]?

  public nonisolated init(service: any SearchService, decoder: any SearchDecoder) {
    self.service = service
    self.decoder = decoder
  }

  public func search(for query: String) async {
    generation += 1
    let mine = generation
    do {
      let answer = try await service.results(for: query)
      let found = try await Self.decode(answer, with: decoder)
      guard mine == generation else {
        fallback = found
        return
      }
      fallback = nil
      hits = found
    } catch {
      if mine == generation, let fallback { hits = fallback }
    }
  }

  private nonisolated static func decode(_ answer: Data, with decoder: any SearchDecoder)
    async throws -> [SearchHit]
  {
    try decoder.hits(in: answer)
  }
}
