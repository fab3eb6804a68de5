// Expected to fail: Rows cancelled on other threads while their download finishes each hear back once
// Lets a cancelled row leave at once: its cancellation handler answers it and marks it answered,
// and the loader answers only the rows not marked. But the handler runs on the cancelling thread,
// and nothing orders its mark with the loader's reading of it: both can answer the row, twice.
// Caught by the Thread Sanitizer (Scripts/check-threads).
import Foundation
import Services

/// Loads the avatars in a scrolling list. Many rows show the same person, so rows that ask for
/// the same avatar at once share one download; a row that scrolls away cancels its call.
public actor AvatarLoader {
  /// A row's wait, which its cancellation handler may answer before the download does.
  private final class Row: @unchecked Sendable {
    var continuation: CheckedContinuation<Image, any Error>?
    var answered = false

    func answer(with result: Result<Image, any Error>) {
      guard !answered, let continuation else { return }
      answered = true
      continuation.resume(with: result)
    }
  }

  private struct SharedDownload {
    let id: UUID
    let task: Task<Void, Never>
    var rows: [ObjectIdentifier: Row] = [:]
  }

  private var downloads: [URL: SharedDownload] = [:]
  private let client: any ImageClient

  public init(client: any ImageClient) {
    self.client = client
  }

  /// The avatar at `url`, from the download already running for it if there is one.
  public func avatar(at url: URL) async throws -> Image {
    let row = Row()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        row.continuation = continuation
        join(url, row)
      }
    } onCancel: {
      // A row that scrolls away hears back at once, without waiting for the loader.
      row.answer(with: .failure(CancellationError()))
      Task { await self.leave(url, row) }
    }
  }

  private func join(_ url: URL, _ row: Row) {
    if Task.isCancelled {
      row.answer(with: .failure(CancellationError()))
      return
    }
    if downloads[url] == nil {
      let id = UUID()
      let task = Task {
        let result: Result<Image, any Error>
        do {
          result = .success(try Image(data: try await client.data(from: url)))
        } catch {
          result = .failure(error)
        }
        finish(url, download: id, with: result)
      }
      downloads[url] = SharedDownload(id: id, task: task)
    }
    downloads[url]?.rows[ObjectIdentifier(row)] = row
  }

  private func leave(_ url: URL, _ row: Row) {
    guard downloads[url]?.rows.removeValue(forKey: ObjectIdentifier(row)) != nil else { return }
    row.answer(with: .failure(CancellationError()))
    // The last row out cancels the work nobody is waiting for any more.
    if downloads[url]?.rows.isEmpty == true {
      downloads.removeValue(forKey: url)?.task.cancel()
    }
  }

  private func finish(_ url: URL, download id: UUID, with result: Result<Image, any Error>) {
    // A download cancelled by its last row may finish after a new one for the same URL began.
    guard downloads[url]?.id == id, let download = downloads.removeValue(forKey: url) else {
      return
    }
    for row in download.rows.values {
      row.answer(with: result)
    }
  }
}
