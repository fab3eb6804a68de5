// Expected to fail: A search that finds nothing shows nothing
// Keeps the hits on screen when the newest search finds none, so as not to blank the screen:
// "swiftx", which finds nothing, still lists the hits for "swift".
import Foundation
import Services

@MainActor
public final class SearchModel {
  public private(set) var hits: [SearchHit] = []
  private let service: any SearchService
  private let decoder: any SearchDecoder

  private var generation = 0
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
    generation += 1
    let mine = generation
    do {
      let answer = try await service.results(for: query)
      let found = try await Self.decode(answer, with: decoder)
      guard mine == generation, !found.isEmpty else { return }
      hits = found
    } catch {}
  }
}
