// Keeps each row's continuation under an id of its own and lets a cancelled row leave through a
// task that hops to the loader, as correct-waiters-by-id-leave-by-hop does, and decodes off the
// actor; then each row, with its image in hand, checks it in a @concurrent function before it
// returns, a step off the loader after its work there is done.
import Foundation
import Services

/// Loads the avatars in a scrolling list. Many rows show the same person, so rows that ask for
/// the same avatar at once share one download; a row that scrolls away cancels its call.
public actor AvatarLoader {
  private final class Download {
    var task: Task<Void, Never>?
    var waiters: [UUID: CheckedContinuation<Image, any Error>] = [:]
  }
  private var downloads: [URL: Download] = [:]
  private let client: any ImageClient

  public init(client: any ImageClient) {
    self.client = client
  }

  /// The avatar at `url`, from the download already running for it if there is one.
  public func avatar(at url: URL) async throws -> Image {
    let download = downloads[url] ?? start(url)
    let id = UUID()
    let key = ObjectIdentifier(download)
    let image = try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        download.waiters[id] = continuation
        if Task.isCancelled { leave(url, key, id) }
      }
    } onCancel: {
      Task { await self.leave(url, key, id) }
    }
    return await Self.checked(image)
  }

  @concurrent
  private nonisolated static func decode(_ data: Data) async throws -> Image {
    try Image(data: data)
  }

  @concurrent
  private nonisolated static func checked(_ image: Image) async -> Image {
    precondition(image.pixels.count == image.width * image.height * 3)
    return image
  }

  private func start(_ url: URL) -> Download {
    let download = Download()
    downloads[url] = download
    download.task = Task {
      let result: Result<Image, any Error>
      do {
        let data = try await client.data(from: url)
        result = .success(try Image(data: data))
      } catch {
        result = .failure(error)
      }
      finish(url, download, result)
    }
    return download
  }

  private func finish(_ url: URL, _ download: Download, _ result: Result<Image, any Error>) {
    if downloads[url] === download { downloads[url] = nil }
    let waiters = download.waiters
    download.waiters = [:]
    for waiter in waiters.values { waiter.resume(with: result) }
  }

  private func leave(_ url: URL, _ key: ObjectIdentifier, _ id: UUID) {
    // Only the download still recorded can have waiters: one that finished or was given up
    // resumed or dropped them all when it was forgotten.
    guard let download = downloads[url], ObjectIdentifier(download) == key,
      let waiter = download.waiters.removeValue(forKey: id)
    else { return }
    waiter.resume(throwing: CancellationError())
    if download.waiters.isEmpty {
      download.task?.cancel()
      downloads[url] = nil
    }
  }
}
