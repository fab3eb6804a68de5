// Expected to fail: Addresses that differ from another only in their scheme, host, port or query download apart, and each keeps its picture
// Keys its images and downloads by the address without its query, as if a query only tracked
// the visit: cat.png?size=small joins the download of cat.png and gets that picture.
import Foundation
import Services

/// Keeps downloaded images in memory, so that a screen showing the same picture twice downloads it
/// once.
public actor ImageCache {
  private var images: [String: Image] = [:]
  private var inFlight: [String: Task<Image, any Error>] = [:]
  private let client: any ImageClient

  public init(client: any ImageClient) {
    self.client = client
  }

  /// One key for one picture: scheme, host and path, without the query or fragment that CDNs
  /// add for tracking.
  private func key(for url: URL) -> String {
    var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
    components?.query = nil
    components?.fragment = nil
    return components?.string ?? url.absoluteString
  }

  public func image(for url: URL) async throws -> Image {
    let key = key(for: url)
    if let cached = images[key] {
      return cached
    }
    if let running = inFlight[key] {
      return try await running.value
    }
    let client = self.client
    let task = Task { () throws -> Image in
      try Image(data: try await client.data(from: url))
    }
    inFlight[key] = task
    defer { inFlight[key] = nil }
    let image = try await task.value
    images[key] = image
    return image
  }
}
