// Expected to fail: Typing two queries, answered in every order, one failing at most, never shows older hits
// Clears the screen when a search starts, as a loading state, and puts back what it saved when the
// search fails; typing fast saves a screen already cleared, so a failure of the newest search
// leaves it empty.
import Foundation
import Services

@MainActor
public final class SearchModel {
  public private(set) var hits: [SearchHit] = []
  private let service: any SearchService
  private let decoder: any SearchDecoder

  public nonisolated init(service: any SearchService, decoder: any SearchDecoder) {
    self.service = service
    self.decoder = decoder
  }

  public func search(for query: String) async {
    let previous = hits
    hits = []
    do {
      let answer = try await service.results(for: query)
      if Task.isCancelled { return }
      let found = try await Self.decode(answer, with: decoder)
      if Task.isCancelled { return }
      hits = found
    } catch {
      if !Task.isCancelled { hits = previous }
    }
  }

  private nonisolated static func decode(_ answer: Data, with decoder: any SearchDecoder)
    async throws -> [SearchHit]
  {
    try decoder.hits(in: answer)
  }
}
