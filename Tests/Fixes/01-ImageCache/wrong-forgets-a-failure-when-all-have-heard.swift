// Expected to fail: Callers who ask after a failed download, while another caller of it has not heard yet, agree on one image
// Shares one download per URL and counts its callers; the last of them to hear of it takes it off
// the list. After a failure, a caller who asks while another caller has not heard yet joins the
// failed download and is handed its failure, though the caller who started it had heard.
import Foundation
import Services

public actor ImageCache {
  private var images: [URL: Image] = [:]
  private var downloads: [URL: (task: Task<Image, any Error>, callers: Int)] = [:]
  private let client: any ImageClient

  public init(client: any ImageClient) {
    self.client = client
  }

  public func image(for url: URL) async throws -> Image {
    if let cached = images[url] {
      return cached
    }
    let download: Task<Image, any Error>
    if let running = downloads[url] {
      download = running.task
      downloads[url]?.callers += 1
    } else {
      download = Task { try Image(data: try await client.data(from: url)) }
      downloads[url] = (download, 1)
    }
    defer {
      downloads[url]?.callers -= 1
      if downloads[url]?.callers == 0 { downloads[url] = nil }
    }
    let image = try await download.value
    if let stored = images[url] {
      return stored
    }
    images[url] = image
    return image
  }
}
