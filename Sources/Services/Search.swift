import Foundation

/// One hit of a search, as a search screen lists it.
public struct SearchHit: Hashable, Sendable {
  public let title: String

  public init(title: String) {
    self.title = title
  }
}

/// The backend a search screen asks.
public protocol SearchService: Sendable {
  /// The backend's raw answer for `query`.
  func results(for query: String) async throws -> Data
}

/// Turns a backend's raw answer into hits: plain CPU work, which takes a while on a big answer.
public protocol SearchDecoder: Sendable {
  func hits(in answer: Data) throws -> [SearchHit]
}
