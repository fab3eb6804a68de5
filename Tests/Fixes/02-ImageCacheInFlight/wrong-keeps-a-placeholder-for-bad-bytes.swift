// Expected to fail: Bytes that are not an image throw, and the next call downloads again
// Keeps a grey placeholder for bytes that are not an image, and hands it to every later caller:
// a failed download, kept for good.
import Foundation
import Services

public actor ImageCache {
  private enum Entry {
    case ready(Image)
    case loading(Task<Image, Error>)
  }
  private var entries: [URL: Entry] = [:]
  private let client: any ImageClient
  static let placeholder = Image(width: 1, height: 1, pixels: [128, 128, 128])
  public init(client: any ImageClient) { self.client = client }

  public func image(for url: URL) async throws -> Image {
    switch entries[url] {
    case .ready(let image): return image
    case .loading(let task): return try await task.value
    case nil:
      let task = Task { () throws -> Image in
        do {
          let data = try await client.data(from: url)
          let image = (try? Image(data: data)) ?? Self.placeholder
          entries[url] = .ready(image)
          return image
        } catch {
          entries[url] = nil
          throw error
        }
      }
      entries[url] = .loading(task)
      return try await task.value
    }
  }
}
