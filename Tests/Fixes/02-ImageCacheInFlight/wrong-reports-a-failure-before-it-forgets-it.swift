// Expected to fail: A caller who asks once the failure has been heard gets a new download
// Reports a failure off the actor before it forgets the failed download, and forgets it only if
// it is still the one on record: a caller who asks during the report is handed the old failure.
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
      await report(error, for: url)
      if downloads[url] == download { downloads[url] = nil }
      throw error
    }
  }
}
