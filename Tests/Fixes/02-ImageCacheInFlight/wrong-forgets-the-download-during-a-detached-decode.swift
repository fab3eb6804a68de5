// Expected to fail: A caller who asks while the first caller is still making its image joins its download
// Forgets the shared download, then awaits a decode in a Task.detached before it stores the image:
// a caller who asks during the decode finds neither, and downloads again.
import Foundation
import Services

public actor ImageCache {
  private var images: [URL: Image] = [:]
  private var inFlight: [URL: Task<Data, any Error>] = [:]
  private let client: any ImageClient

  public init(client: any ImageClient) {
    self.client = client
  }

  public func image(for url: URL) async throws -> Image {
    if let cached = images[url] { return cached }
    let task: Task<Data, any Error>
    let mine: Bool
    if let existing = inFlight[url] {
      task = existing
      mine = false
    } else {
      let client = self.client
      task = Task { try await client.data(from: url) }
      inFlight[url] = task
      mine = true
    }
    let data: Data
    do {
      data = try await task.value
    } catch {
      if inFlight[url] == task { inFlight[url] = nil }
      throw error
    }
    if mine, inFlight[url] == task { inFlight[url] = nil }
    // Decode off the actor: decoding is CPU work.
    let image = try await Task.detached { try Image(data: data) }.value
    if let stored = images[url] { return stored }
    images[url] = image
    return image
  }
}
