// Expected to fail: Text typed again makes the search typed past in between old news
// Shows the cached hits of a text typed again at once, without counting it as a newer search:
// the search for the text typed in between still counts as the newest, and lands.
import Foundation
import Services

@MainActor
public final class SearchModel {
  public private(set) var hits: [SearchHit] = []
  private let service: any SearchService
  private let decoder: any SearchDecoder

  private var generation = 0
  private var cache: [String: [SearchHit]] = [:]
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
    if let cached = cache[query] {
      hits = cached
      return
    }
    generation += 1
    let mine = generation
    do {
      let answer = try await service.results(for: query)
      let found = try await Self.decode(answer, with: decoder)
      cache[query] = found
      guard mine == generation else { return }
      hits = found
    } catch {}
  }
}
