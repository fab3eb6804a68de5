// Expected to fail: A caller who asks while the first caller has left the actor with its bytes joins its download
// Forgets the download once its bytes are back, then records it with an audit actor of its own
// before it stores the image: while the caller is on that actor, a caller who asks downloads again.
import Foundation
import Services

private actor Auditor {
  private var entries: [String] = []
  func record(_ line: String) {
    entries.append(line)
  }
}

public actor ImageCache {
  private var images: [URL: Image] = [:]
  private var downloads: [URL: Task<Image, any Error>] = [:]
  private let client: any ImageClient
  private let auditor = Auditor()

  public init(client: any ImageClient) {
    self.client = client
  }

  public func image(for url: URL) async throws -> Image {
    if let cached = images[url] {
      return cached
    }
    if let running = downloads[url] {
      return try await running.value
    }
    let download = Task { [client] in
      let data = try await client.data(from: url)
      return try Image(data: data)
    }
    downloads[url] = download
    do {
      let image = try await download.value
      downloads[url] = nil
      await auditor.record("downloaded \(url.absoluteString) \(image.width)x\(image.height)")
      images[url] = image
      return image
    } catch {
      downloads[url] = nil
      throw error
    }
  }
}
