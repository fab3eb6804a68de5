// Expected to fail: A caller who asks as the download answers, before anyone has resumed, joins it
// Waiters wait on continuations. Once the bytes arrive, the download is taken off the record and
// decoded away from the actor, and only then is the image stored: a caller who asks during the
// decode finds neither, and downloads again.
import Foundation
import Services

public actor ImageCache {
  private var images: [URL: Image] = [:]
  private let client: any ImageClient
  private var waiters: [URL: [CheckedContinuation<Image, any Error>]] = [:]

  public init(client: any ImageClient) {
    self.client = client
  }

  /// Decodes off the actor, so a big image does not block other callers.
  nonisolated private func decode(_ data: Data) async throws -> Image {
    try Image(data: data)
  }

  public func image(for url: URL) async throws -> Image {
    if let cached = images[url] { return cached }
    if waiters[url] != nil {
      return try await withCheckedThrowingContinuation { waiters[url]!.append($0) }
    }
    waiters[url] = []
    let result: Result<Image, any Error>
    var waiting: [CheckedContinuation<Image, any Error>] = []
    do {
      let data = try await client.data(from: url)
      waiting = waiters.removeValue(forKey: url) ?? []
      result = .success(try await decode(data))
    } catch {
      waiting += waiters.removeValue(forKey: url) ?? []
      result = .failure(error)
    }
    if case .success(let image) = result { images[url] = image }
    for waiter in waiting { waiter.resume(with: result) }
    return try result.get()
  }
}
