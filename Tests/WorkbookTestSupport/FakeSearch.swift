import Foundation
import ScheduleExplorer
import Services

/// A ``SearchService`` whose answers wait until the test lets them arrive, in any order.
///
/// Like a backend that has already started on a request, it does not stop when the task that
/// asked is cancelled: it records the cancellation and still answers when the test releases it.
/// Besides a good answer and a network error, it can send an answer the decoder cannot read
/// (`undecodable`), as a backend does that changed its format or cut its answer short.
///
/// What ``SearchService`` documents, and how this fake does it:
/// - "The backend a search screen asks": every search waits until the test lets it answer, in any
///   order, and answers even when the task that asked was cancelled.
/// - "The backend's raw answer for `query`": the outcome `answer`, which decodes into
///   ``hits(for:)`` (no hits at all for a query that ends in `x`), or the outcome `undecodable`,
///   which the decoder cannot read.
/// - Besides: the outcome `error`, a ``FakeNetworkError``.
public final class FakeSearchService: SearchService, FakeService {
  public let requests: Requests

  public init(_ scenario: Scenario) {
    requests = Requests(
      noun: "search", preposition: "for", outcomes: ["answer", "error", "undecodable"],
      scenario: scenario)
    requests.cancellation = .isIgnored
  }

  /// The number of the search for `query`, once it has started.
  public func request(for query: String) -> Int? {
    requests.records.first { $0.key == query }?.number
  }

  public func results(for query: String) async throws -> Data {
    // The answer names the caller who asked, after a separator no query holds, so that the
    // decoder can hold that caller's decode wherever it runs, even in work that carries no
    // caller's name.
    let asker = CurrentCaller.name.map { Self.askedBy + $0 } ?? ""
    return try await requests.perform(for: query) { number, outcome in
      switch outcome {
      case "error": throw FakeNetworkError(request: number)
      case "undecodable":
        return (Data((query + Self.cutShort + asker).utf8), "sends an answer cut short")
      default: return (Data((query + asker).utf8), "answers for \"\(query)\"")
      }
    }
  }

  /// What ends an answer the decoder cannot read.
  fileprivate static let cutShort = " (cut short)"
  /// What comes before the name of the caller who asked, at the very end of an answer.
  fileprivate static let askedBy = "\u{1F}"

  /// The hits that the answer for `query` holds: none for a query that ends in `x`, such as
  /// `swiftx`, for which the backend finds nothing; one, `swift result`, for any other.
  public static func hits(for query: String) -> [SearchHit] {
    query.hasSuffix("x") ? [] : [SearchHit(title: "\(query) result")]
  }
}

/// A ``SearchDecoder`` that remembers, for every answer it decodes, whether it ran on the main
/// actor, where every other job of the screen would have had to wait for it. A caller the test
/// holds stops inside its decode (see ``Scenario/holdPoint(_:)``). An answer the service sent as
/// `undecodable` makes it throw ``FakeDecodingError``.
///
/// What ``SearchDecoder`` documents, and how this fake does it:
/// - "Turns a backend's raw answer into hits": every answer the service sent, and it throws on
///   one sent as `undecodable`; a caller the test holds stays inside its decode while others
///   run, as a big answer keeps its thread busy, wherever the decode runs, since each answer
///   names the caller who asked for it.
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
    let parts = String(decoding: answer, as: UTF8.self)
      .split(separator: FakeSearchService.askedBy, omittingEmptySubsequences: false)
    let text = String(parts[0])
    let asker = parts.count > 1 ? String(parts[1]) : nil
    let isCutShort = text.hasSuffix(FakeSearchService.cutShort)
    let query = isCutShort ? String(text.dropLast(FakeSearchService.cutShort.count)) : text
    // A big answer keeps its thread busy a while: a held caller stays in here while others run,
    // also when its decode runs in a task that does not carry its name.
    scenario.holdPoint("decodes the answer for \"\(query)\"", for: asker)
    let onMainActor = MainActorProbe.isOnMainActor
    let place = onMainActor ? "on" : "off"
    decoded.withLock { $0.append(Decoding(query: query, onMainActor: onMainActor)) }
    if isCutShort {
      scenario.recordObservation(
        "cannot decode the answer for \"\(query)\", cut short, \(place) the main actor")
      throw FakeDecodingError(query: query)
    }
    scenario.recordObservation("decodes the answer for \"\(query)\" \(place) the main actor")
    return FakeSearchService.hits(for: query)
  }
}

/// The error ``FakeSearchDecoder`` throws on an answer it cannot read.
public struct FakeDecodingError: Error, Equatable, CustomStringConvertible {
  /// The query whose answer could not be decoded.
  public let query: String

  public var description: String {
    "the answer for \"\(query)\" could not be decoded"
  }
}
