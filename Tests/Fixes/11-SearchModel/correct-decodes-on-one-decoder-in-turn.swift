// Decodes every answer on one actor of its own, so that decodes take turns, and keeps a token for
// the newest search: a search shows its hits only while its token is still the newest.
import Foundation
import Services

actor DecodingDesk {
  func hits(in answer: Data, using decoder: any SearchDecoder) throws -> [SearchHit] {
    try decoder.hits(in: answer)
  }
}

private final class SearchToken: Sendable {}

@MainActor
public final class SearchModel {
  public private(set) var hits: [SearchHit] = []
  private let service: any SearchService
  private let decoder: any SearchDecoder

  public nonisolated init(service: any SearchService, decoder: any SearchDecoder) {
    self.service = service
    self.decoder = decoder
  }

  private let desk = DecodingDesk()
  private var newest: SearchToken?

  public func search(for query: String) async {
    let token = SearchToken()
    newest = token
    do {
      let answer = try await service.results(for: query)
      let found = try await desk.hits(in: answer, using: decoder)
      guard newest === token else { return }
      hits = found
    } catch {
      // A search that fails leaves the last hits on screen.
    }
  }
}
