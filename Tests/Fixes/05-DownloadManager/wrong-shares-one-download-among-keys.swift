// Expected to fail: Cancelling one key leaves another key's download of the same image running
// Shares one download among the keys that ask for the same image, and cancels it only when no
// key needs it any more: a key that is cancelled while another shares its download gets the image
// instead of a cancellation.
import Foundation
import Services

public actor DownloadManager {
  private final class Shared {
    let task: Task<Image, any Error>
    var users = 0
    init(task: Task<Image, any Error>) { self.task = task }
  }
  private final class Token {}
  private var downloads: [String: (token: Token, url: URL)] = [:]
  private var shared: [URL: Shared] = [:]
  private let client: any ImageClient

  public init(client: any ImageClient) {
    self.client = client
  }

  private func release(_ url: URL) {
    guard let entry = shared[url] else { return }
    entry.users -= 1
    if entry.users == 0 {
      entry.task.cancel()
      shared[url] = nil
    }
  }

  public func download(_ url: URL, for key: String) async throws -> Image {
    if let old = downloads.removeValue(forKey: key) { release(old.url) }
    let entry: Shared
    if let running = shared[url] {
      entry = running
    } else {
      entry = Shared(
        task: Task {
          let data = try await client.data(from: url)
          return try Image(data: data)
        })
      shared[url] = entry
    }
    entry.users += 1
    let token = Token()
    downloads[key] = (token, url)
    defer {
      if downloads[key]?.token === token {
        downloads[key] = nil
        release(url)
      }
    }
    return try await entry.task.value
  }

  public func cancelDownload(for key: String) {
    if let old = downloads.removeValue(forKey: key) { release(old.url) }
  }

  public func isDownloading(for key: String) -> Bool { downloads[key] != nil }
}
