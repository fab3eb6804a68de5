// Expected to fail: Cancelling one caller leaves another caller's fetch running
// Keeps "the" current call on the actor, for the cancellation handler to end: with two callers,
// the second call replaces the first, and cancelling the first caller ends the second's fetch.
import Foundation
import Services

public actor StatementLoader {
  private let client: any LegacyStatementClient
  private var current: LegacyCall?

  public init(client: any LegacyStatementClient) {
    self.client = client
  }

  public func statement(for month: String) async throws -> Statement {
    let call = LegacyCall()
    current = call
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        call.wait(continuation)
        let request = client.fetchStatement(for: month) { statement, error in
          call.finish(
            statement.map { .success($0) } ?? .failure(error ?? NoStatement(month: month)))
        }
        call.started(request)
      }
    } onCancel: {
      Task { await self.cancelCurrent() }
    }
  }

  private func cancelCurrent() {
    current?.cancel()
  }
}

private final class LegacyCall: @unchecked Sendable {
  private let lock = NSLock()
  private var continuation: CheckedContinuation<Statement, any Error>?
  private var request: (any LegacyRequest)?

  func wait(_ continuation: CheckedContinuation<Statement, any Error>) {
    lock.withLock { self.continuation = continuation }
  }

  func started(_ request: any LegacyRequest) {
    lock.withLock { self.request = request }
  }

  func finish(_ result: Result<Statement, any Error>) {
    let waiting = lock.withLock {
      defer { continuation = nil }
      return continuation
    }
    waiting?.resume(with: result)
  }

  func cancel() {
    let (waiting, request) = lock.withLock {
      defer { continuation = nil }
      return (continuation, self.request)
    }
    guard let waiting else { return }
    request?.cancel()
    waiting.resume(throwing: CancellationError())
  }
}
