// Expected to fail: Cancelling a search cancels its request
// Runs the whole search in a `Task.detached`, off the main actor, and hops back only to show the
// hits; but the view's task no longer owns the work, so cancelling it stops nothing.
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
    Task.detached { [service, decoder] in
      guard let answer = try? await service.results(for: query),
        let found = try? decoder.hits(in: answer)
      else { return }
      await MainActor.run { self.hits = found }
    }
  }
}
