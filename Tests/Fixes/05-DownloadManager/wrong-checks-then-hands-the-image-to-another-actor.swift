// Expected to fail: A newer request made while the older one is away from the actor with its bytes keeps its key
// Notes that the key's entry is still its own, hands the image to a thumbnails actor, then removes
// the entry: a newer request made while the caller is on that actor loses its entry.
import Foundation
import Services

private actor Thumbnails {
  private var recent: [String: Image] = [:]
  func keep(_ image: Image, for key: String) {
    recent[key] = image
  }
}

public actor DownloadManager {
  private var downloads: [String: Task<Image, any Error>] = [:]
  private let client: any ImageClient
  private let thumbnails = Thumbnails()

  public init(client: any ImageClient) {
    self.client = client
  }

  public func download(_ url: URL, for key: String) async throws -> Image {
    downloads[key]?.cancel()
    let download = Task { [client] in
      let data = try await client.data(from: url)
      return try Image(data: data)
    }
    downloads[key] = download
    do {
      let image = try await download.value
      let stillMine = downloads[key] == download
      await thumbnails.keep(image, for: key)
      if stillMine { downloads[key] = nil }
      return image
    } catch {
      if downloads[key] == download { downloads[key] = nil }
      throw error
    }
  }

  public func cancelDownload(for key: String) {
    downloads[key]?.cancel()
    downloads[key] = nil
  }

  public func isDownloading(for key: String) -> Bool {
    downloads[key] != nil
  }
}
