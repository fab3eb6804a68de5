// Expected to fail: A caller cancelled on another thread while it is still starting its request calls its fetch off
// Keeps the continuation and the request together once the fetch has returned: a cancellation
// that lands while the fetch starts finds nothing, and is forgotten; the caller waits on.
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
      var early: Result<Statement, any Error>?
      var done = false
    }
    let state = Mutex(State())

    func deliver(_ r: Result<Statement, any Error>) {
      let c = state.withLock { s -> CheckedContinuation<Statement, any Error>? in
        if s.done { return nil }
        guard let c = s.continuation else {
          s.early = r
          s.done = true
          return nil
        }
        s.done = true
        s.continuation = nil
        return c
      }
      c?.resume(with: r)
    }

    func cancel() {
      let (c, r) = state.withLock {
        s -> (CheckedContinuation<Statement, any Error>?, (any LegacyRequest)?) in
        guard !s.done, let c = s.continuation else { return (nil, nil) }
        s.done = true
        s.continuation = nil
        defer { s.request = nil }
        return (c, s.request)
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
        let request = client.fetchStatement(for: month) { statement, error in
          if let error {
            box.deliver(.failure(error))
          } else if let statement {
            box.deliver(.success(statement))
          } else {
            box.deliver(.failure(NoStatement(month: month)))
          }
        }
        let early = box.state.withLock { s -> Result<Statement, any Error>? in
          if let e = s.early { return e }
          s.continuation = continuation
          s.request = request
          return nil
        }
        if let early { continuation.resume(with: early) }
      }
    } onCancel: {
      box.cancel()
    }
  }
}
