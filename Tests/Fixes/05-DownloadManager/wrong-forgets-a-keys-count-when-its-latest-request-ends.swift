// Expected to fail: Of three requests for one key, the first one's late end leaves the third in charge
// Numbers each key's requests and lets only the latest clear the key's entry, but the latest, as
// it ends, also forgets the key's count. A is replaced by B and winds down slowly; B ends; C asks
// and is numbered 1 again, like A; when A's call finally ends, it takes the key for its own and
// clears C's entry.
import Foundation
import Services

public actor DownloadManager {
  private var downloads: [String: Task<Image, any Error>] = [:]
  private var generations: [String: Int] = [:]
  private let client: any ImageClient

  public init(client: any ImageClient) {
    self.client = client
  }

  public func download(_ url: URL, for key: String) async throws -> Image {
    downloads[key]?.cancel()
    generations[key, default: 0] += 1
    let mine = generations[key]!
    let download = Task { [client] in
      let data = try await client.data(from: url)
      return try Image(data: data)
    }
    downloads[key] = download
    defer {
      if generations[key] == mine {
        downloads[key] = nil
        generations[key] = nil
      }
    }
    return try await download.value
  }

  public func cancelDownload(for key: String) {
    downloads[key]?.cancel()
    downloads[key] = nil
  }

  public func isDownloading(for key: String) -> Bool {
    downloads[key] != nil
  }
}
