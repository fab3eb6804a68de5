// Expected to fail: A caller who hears of a failure late leaves the next download alone
// Checks that the failed download is still on record, reports the failure off the actor, then
// clears the record: a caller who checked before another cleared it clears a newer download's.
import Foundation
import Services

@concurrent
private func report(_ error: any Error, for url: URL) async {
  _ = "image download of \(url.absoluteString) failed: \(error)"
}

public actor ImageCache {
  private var images: [URL: Image] = [:]
  private var downloads: [URL: Task<Image, any Error>] = [:]
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
      download = running
    } else {
      download = Task { [client] in
        let data = try await client.data(from: url)
        return try Image(data: data)
      }
      downloads[url] = download
    }
    do {
      let image = try await download.value
      if images[url] == nil { images[url] = image }
      if downloads[url] == download { downloads[url] = nil }
      return images[url] ?? image
    } catch {
      if downloads[url] == download {
        await report(error, for: url)
        downloads[url] = nil
      }
      throw error
    }
  }
}
