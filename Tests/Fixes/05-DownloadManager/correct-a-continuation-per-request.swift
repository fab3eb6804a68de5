// Gives each request a continuation of its own, which its download answers unless a newer
// request, cancelDownload(for:) or its caller's cancellation has ended it first.
import Foundation
import Services

/// Downloads the images that a photo browser shows. Each download is for a key, such as the view
/// that will show it; a new request for a key replaces the one before it, because only the latest
/// one will be shown.
public actor DownloadManager {
  /// One request: where its caller waits, and the download that will answer it.
  private final class Request: @unchecked Sendable {
    var continuation: CheckedContinuation<Image, any Error>?
    var download: Task<Void, Never>?
  }

  private var requests: [String: Request] = [:]
  private let client: any ImageClient

  public init(client: any ImageClient) {
    self.client = client
  }

  /// Downloads the image at `url` for `key`, cancelling any download still running for that key.
  public func download(_ url: URL, for key: String) async throws -> Image {
    if let older = requests[key] {
      end(older, with: .failure(CancellationError()))
    }
    let request = Request()
    requests[key] = request
    defer {
      if requests[key] === request { requests[key] = nil }
    }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        request.continuation = continuation
        let client = client
        request.download = Task {
          let result: Result<Image, any Error>
          do {
            result = .success(try Image(data: try await client.data(from: url)))
          } catch {
            result = .failure(error)
          }
          await self.finish(request, for: key, with: result)
        }
      }
    } onCancel: {
      Task { await self.giveUp(request, for: key) }
    }
  }

  private func finish(_ request: Request, for key: String, with result: Result<Image, any Error>) {
    request.continuation?.resume(with: result)
    request.continuation = nil
  }

  private func giveUp(_ request: Request, for key: String) {
    end(request, with: .failure(CancellationError()))
  }

  private func end(_ request: Request, with result: Result<Image, any Error>) {
    request.download?.cancel()
    request.continuation?.resume(with: result)
    request.continuation = nil
  }

  /// Cancels the download running for `key`, for example when its view goes off screen.
  public func cancelDownload(for key: String) {
    if let request = requests.removeValue(forKey: key) {
      end(request, with: .failure(CancellationError()))
    }
  }

  /// Whether a download is running for `key`, so the view can show a spinner.
  public func isDownloading(for key: String) -> Bool {
    requests[key] != nil
  }
}
