// Expected to fail: Text typed again makes the search typed past in between old news
// Skips a search for the text already on screen without counting it as a newer search: after
// "s", "sw" and "s" again, the late answer for "sw" lands over "s".
import Foundation
import Services

@MainActor
public final class SearchModel {
  public private(set) var hits: [SearchHit] = []
  private let service: any SearchService
  private let decoder: any SearchDecoder

  private var generation = 0
  private var shownQuery: String?
  public nonisolated init(service: any SearchService, decoder: any SearchDecoder) {
    self.service = service
    self.decoder = decoder
  }

  @concurrent
  private static func decode(_ answer: Data, with decoder: any SearchDecoder) async throws
    -> [SearchHit]
  {
    try decoder.hits(in: answer)
  }

  public func search(for query: String) async {
    guard query != shownQuery else { return }
    generation += 1
    let mine = generation
    do {
      let answer = try await service.results(for: query)
      let found = try await Self.decode(answer, with: decoder)
      guard mine == generation else { return }
      hits = found
      shownQuery = query
    } catch {}
  }
}
