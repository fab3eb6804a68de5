// The first caller downloads; the others wait on continuations it resumes. Right for this
// chapter's promise, which says nothing of cancellation, but not beyond it: cancel the first
// caller and its download throws CancellationError, which it hands to every waiter, though none
// of them was cancelled. Chapter 09 is about exactly that.
import Foundation
import Services

public actor ImageCache {
  private var images: [URL: Image] = [:]
  private var waiting: [URL: [CheckedContinuation<Image, any Error>]] = [:]
  private let client: any ImageClient

  public init(client: any ImageClient) {
    self.client = client
  }

  public func image(for url: URL) async throws -> Image {
    if let cached = images[url] {
      return cached
    }
    if waiting[url] != nil {
      return try await withCheckedThrowingContinuation { waiting[url, default: []].append($0) }
    }
    waiting[url] = []
    do {
      let image = try Image(data: try await client.data(from: url))
      images[url] = image
      for waiter in waiting.removeValue(forKey: url) ?? [] { waiter.resume(returning: image) }
      return image
    } catch {
      for waiter in waiting.removeValue(forKey: url) ?? [] { waiter.resume(throwing: error) }
      throw error
    }
  }
}
