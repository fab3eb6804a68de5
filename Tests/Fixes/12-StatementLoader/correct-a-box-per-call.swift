// Keeps the call's continuation and request in a box of its own under a Mutex, and calls the
// request off and resumes outside the lock.
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
      var cancelled = false
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
        s.cancelled = true
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
        let cancelledAlready = box.state.withLock { s in
          if s.cancelled { return true }
          s.continuation = continuation
          return false
        }
        if cancelledAlready {
          continuation.resume(throwing: CancellationError())
          return
        }
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
        let cancelNow = box.state.withLock { s in
          if s.cancelled { return true }
          s.request = request
          return false
        }
        if cancelNow { request.cancel() }
      }
    } onCancel: {
      box.cancel()
    }
  }
}
