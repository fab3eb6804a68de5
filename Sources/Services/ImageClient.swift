import Foundation

/// Downloads the bytes behind a URL: the network, as an image cache sees it.
///
/// The chapters' actors hold one of these; the tests hand them a fake whose downloads wait until
/// the test lets them finish.
public protocol ImageClient: Sendable {
  func data(from url: URL) async throws -> Data
}
