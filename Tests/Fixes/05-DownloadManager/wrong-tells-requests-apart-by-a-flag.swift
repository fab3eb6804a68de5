// Expected to fail: Of three requests for one key, the first one's late end leaves the third in charge
// Tells a key's requests apart by a flag that flips with each one: the first and the third share
// it, so the first one's late cleanup removes the third one's entry.
import Foundation
import Services

public actor DownloadManager {
  private var downloads: [String: Task<Image, any Error>] = [:]
  private var parity: [String: Bool] = [:]
  private let client: any ImageClient
  public init(client: any ImageClient) { self.client = client }

  public func download(_ url: URL, for key: String) async throws -> Image {
    downloads[key]?.cancel()
    let mine = !(parity[key] ?? false)
    parity[key] = mine
    let task = Task { try Image(data: try await client.data(from: url)) }
    downloads[key] = task
    defer { if parity[key] == mine { downloads[key] = nil } }
    return try await task.value
  }

  public func cancelDownload(for key: String) {
    downloads[key]?.cancel()
    downloads[key] = nil
  }

  public func isDownloading(for key: String) -> Bool { downloads[key] != nil }
}
