// Expected to fail: A caller cancelled after its statement arrived hears back once
// Lets only the first callback through, but the cancellation handler resumes the continuation
// whether or not a callback already has: a caller cancelled after its answer came is resumed twice.
import Foundation
import Services

public actor StatementLoader {
  private let client: any LegacyStatementClient

  public init(client: any LegacyStatementClient) {
    self.client = client
  }

  public func statement(for month: String) async throws -> Statement {
    let pending = Pending()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        pending.set(continuation)
        let answered = Once()
        let request = client.fetchStatement(for: month) { statement, error in
          guard answered.first() else { return }
          if let statement {
            continuation.resume(returning: statement)
          } else {
            continuation.resume(throwing: error ?? NoStatement(month: month))
          }
        }
        pending.set(request)
      }
    } onCancel: {
      pending.cancel()
    }
  }
}

/// True the first time only.
private final class Once: @unchecked Sendable {
  private let lock = NSLock()
  private var done = false

  func first() -> Bool {
    lock.withLock {
      defer { done = true }
      return !done
    }
  }
}

/// What the cancellation handler needs: the continuation and the request, once they exist.
private final class Pending: @unchecked Sendable {
  private let lock = NSLock()
  private var continuation: CheckedContinuation<Statement, any Error>?
  private var request: (any LegacyRequest)?
  private var isCancelled = false

  func set(_ continuation: CheckedContinuation<Statement, any Error>) {
    let cancelled = lock.withLock {
      self.continuation = continuation
      return isCancelled
    }
    if cancelled { continuation.resume(throwing: CancellationError()) }
  }

  func set(_ request: any LegacyRequest) {
    let cancelled = lock.withLock {
      self.request = request
      return isCancelled
    }
    if cancelled { request.cancel() }
  }

  func cancel() {
    let (continuation, request) = lock.withLock {
      isCancelled = true
      return (self.continuation, self.request)
    }
    request?.cancel()
    continuation?.resume(throwing: CancellationError())
  }
}
