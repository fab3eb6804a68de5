import Foundation
import ScheduleExplorer
import Services

/// A ``SearchService`` whose answers wait until the test lets them arrive, in any order.
///
/// Like a backend that has already started on a request, it does not stop when the task that
/// asked is cancelled: it records the cancellation and still answers when the test releases it.
public final class FakeSearchService: SearchService, FakeService {
  public let requests: Requests

  public init(_ scenario: Scenario) {
    requests = Requests(
      noun: "search", preposition: "for", outcomes: ["answer", "error"], scenario: scenario)
    requests.cancellation = .isIgnored
  }

  /// The number of the search for `query`, once it has started.
  public func request(for query: String) -> Int? {
    requests.records.first { $0.key == query }?.number
  }

  public func results(for query: String) async throws -> Data {
    try await requests.perform(for: query) { number, outcome in
      if outcome == "error" { throw FakeNetworkError(request: number) }
      return (Data(query.utf8), "answers for \"\(query)\"")
    }
  }

  /// The hits that the answer for `query` holds.
  public static func hits(for query: String) -> [SearchHit] {
    [SearchHit(title: "\(query) result")]
  }
}

/// A ``SearchDecoder`` that remembers, for every answer it decodes, whether it ran on the main
/// actor, where every other job of the screen would have had to wait for it. A caller the test
/// holds stops inside its decode (see ``Scenario/holdPoint(_:)``).
public final class FakeSearchDecoder: SearchDecoder {
  /// One answer decoded.
  public struct Decoding: Sendable {
    public let query: String
    public let onMainActor: Bool
  }

  private let decoded = Locked<[Decoding]>([])
  private let scenario: Scenario

  public init(_ scenario: Scenario) {
    self.scenario = scenario
  }

  /// Every answer decoded so far, in order.
  public var decodings: [Decoding] { decoded.value }

  public func hits(in answer: Data) throws -> [SearchHit] {
    let query = String(decoding: answer, as: UTF8.self)
    // A big answer keeps its thread busy a while: a held caller stays in here while others run.
    scenario.holdPoint("decodes the answer for \"\(query)\"")
    let onMainActor = MainActorProbe.isOnMainActor
    decoded.withLock { $0.append(Decoding(query: query, onMainActor: onMainActor)) }
    scenario.recordObservation(
      "decodes the answer for \"\(query)\" \(onMainActor ? "on" : "off") the main actor")
    return FakeSearchService.hits(for: query)
  }
}
