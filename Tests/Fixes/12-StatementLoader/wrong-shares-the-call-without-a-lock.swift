// Expected to fail: A caller cancelled on one thread while it is still starting its request hears back once
// Lets exactly one of the callbacks and the cancellation resume the caller, but keeps what they
// share without a lock: the client's thread, the cancelling thread and the caller's own job read
// and write it at the same time.
// Caught by the Thread Sanitizer (Scripts/check-threads).
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
private final class LegacyCall: @unchecked Sendable {
  private var continuation: CheckedContinuation<Statement, any Error>?
  private var request: (any LegacyRequest)?
  private var isCancelled = false

  func wait(_ continuation: CheckedContinuation<Statement, any Error>) -> Bool {
    if isCancelled {
      continuation.resume(throwing: CancellationError())
      return false
    }
    self.continuation = continuation
    return true
  }

  func started(_ request: any LegacyRequest) {
    if isCancelled {
      request.cancel()
    } else {
      self.request = request
    }
  }

  func finish(_ result: Result<Statement, any Error>) {
    let waiting = continuation
    continuation = nil
    waiting?.resume(with: result)
  }

  func cancel() {
    isCancelled = true
    let waiting = continuation
    continuation = nil
    guard let waiting else { return }
    request?.cancel()
    waiting.resume(throwing: CancellationError())
  }
}
