import Foundation
import Services

/// Loads account statements for the app's new code, which is all `async`, from the statements
/// service's legacy client, which answers through completion handlers.
public actor StatementLoader {
  private let client: any LegacyStatementClient

  public init(client: any LegacyStatementClient) {
    self.client = client
  }

  /// The statement for `month`, such as `2026-11`.
  public func statement(for month: String) async throws -> Statement {
    // The client's callbacks and the cancellation handler meet in `call`, which lets exactly one
    // of them resume this caller.
    let call = LegacyCall()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        guard call.wait(continuation) else { return }
        let request = client.fetchStatement(for: month) { statement, error in
          if let statement {
            call.finish(.success(statement))
          } else {
            call.finish(.failure(error ?? NoStatement(month: month)))
          }
        }
        call.started(request)
      }
    } onCancel: {
      call.cancel()
    }
  }
}

/// One call of the legacy client, and the caller waiting for it.
///
/// The client calls back on its own thread, and the cancellation handler runs on the thread that
/// cancels, possibly at the same moment, and even before the request has started. So the state is
/// guarded by a lock; and nothing is resumed or cancelled while the lock is held, because the
/// runtime may hold locks of its own while it runs a cancellation handler.
private final class LegacyCall: @unchecked Sendable {
  private let lock = NSLock()
  private var continuation: CheckedContinuation<Statement, any Error>?
  private var request: (any LegacyRequest)?
  private var isCancelled = false

  /// Keeps the caller's continuation until the first answer, and says whether to start the
  /// request: not if the caller was cancelled before it asked.
  func wait(_ continuation: CheckedContinuation<Statement, any Error>) -> Bool {
    let cancelled = lock.withLock {
      if !isCancelled { self.continuation = continuation }
      return isCancelled
    }
    if cancelled { continuation.resume(throwing: CancellationError()) }
    return !cancelled
  }

  /// Keeps the request for a cancellation to call off; calls it off at once if the cancellation
  /// came while it was being started.
  func started(_ request: any LegacyRequest) {
    let cancelled = lock.withLock {
      if !isCancelled { self.request = request }
      return isCancelled
    }
    if cancelled { request.cancel() }
  }

  /// Resumes the caller with the first answer; an answer after it finds nobody waiting.
  func finish(_ result: Result<Statement, any Error>) {
    let waiting = lock.withLock {
      defer { continuation = nil }
      return continuation
    }
    waiting?.resume(with: result)
  }

  /// Calls the request off and resumes the caller, unless an answer came first.
  func cancel() {
    let (waiting, request) = lock.withLock {
      isCancelled = true
      defer { continuation = nil }
      return (continuation, self.request)
    }
    guard let waiting else { return }
    request?.cancel()
    waiting.resume(throwing: CancellationError())
  }
}
