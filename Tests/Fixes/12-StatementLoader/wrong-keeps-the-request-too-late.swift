// Expected to fail: A caller cancelled on another thread while it is still starting its request calls its fetch off
// Keeps the continuation before the fetch starts and the request only once it has returned: a
// cancellation that lands in between resumes the caller, and never calls the request off.
import Services
import Synchronization

public actor StatementLoader {
  private let client: any LegacyStatementClient

  public init(client: any LegacyStatementClient) {
    self.client = client
  }

  private final class Box: Sendable {
    struct State {
      var continuation: CheckedContinuation<Statement, any Error>?
      var request: (any LegacyRequest)?
    }
    let state = Mutex(State())

    func take() -> CheckedContinuation<Statement, any Error>? {
      state.withLock { s in
        defer { s.continuation = nil }
        return s.continuation
      }
    }

    func cancel() {
      let (c, r) = state.withLock {
        s -> (CheckedContinuation<Statement, any Error>?, (any LegacyRequest)?) in
        defer {
          s.continuation = nil
          s.request = nil
        }
        return (s.continuation, s.request)
      }
      r?.cancel()
      c?.resume(throwing: CancellationError())
    }
  }

  public func statement(for month: String) async throws -> Statement {
    let box = Box()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        if Task.isCancelled {
          continuation.resume(throwing: CancellationError())
          return
        }
        box.state.withLock { $0.continuation = continuation }
        let request = client.fetchStatement(for: month) { statement, error in
          guard let c = box.take() else { return }
          if let error {
            c.resume(throwing: error)
          } else if let statement {
            c.resume(returning: statement)
          } else {
            c.resume(throwing: NoStatement(month: month))
          }
        }
        box.state.withLock { $0.request = request }
      }
    } onCancel: {
      box.cancel()
    }
  }
}
