// Remembers the latest text, and shows an answer only if it is for that text: right whether or
// not the view cancels the older search.
import Foundation
import Services

@MainActor
public final class SearchModel {
  public private(set) var hits: [SearchHit] = []
  private var latest: String?
  private let service: any SearchService
  private let decoder: any SearchDecoder

  public nonisolated init(service: any SearchService, decoder: any SearchDecoder) {
    self.service = service
    self.decoder = decoder
  }

  public func search(for query: String) async {
    latest = query
    do {
      let answer = try await service.results(for: query)
      let found = try await Self.decode(answer, with: decoder)
      guard query == latest else { return }
      hits = found
    } catch {
    }
  }

  @concurrent
  private nonisolated static func decode(
    _ answer: Data, with decoder: any SearchDecoder
  ) async throws -> [SearchHit] {
    try decoder.hits(in: answer)
  }
}
