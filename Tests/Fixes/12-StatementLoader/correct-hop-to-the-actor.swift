// Keeps every waiting caller and its request on the actor, and lets the client's callbacks and
// the cancellation handler hop onto it with a `Task`: the actor runs one of them at a time, and
// whichever comes first removes the caller's continuation, so nothing is resumed twice.
import Services

public actor StatementLoader {
  private let client: any LegacyStatementClient
  private var calls = 0
  private var waiting: [Int: CheckedContinuation<Statement, any Error>] = [:]
  private var requests: [Int: any LegacyRequest] = [:]

  public init(client: any LegacyStatementClient) {
    self.client = client
  }

  public func statement(for month: String) async throws -> Statement {
    calls += 1
    let call = calls
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        // A cancellation that came before this point has a task waiting for the actor, which is
        // busy with this closure: when it gets in, it finds the call here and ends it.
        waiting[call] = continuation
        requests[call] = client.fetchStatement(for: month) { statement, error in
          let result: Result<Statement, any Error> =
            statement.map { .success($0) } ?? .failure(error ?? NoStatement(month: month))
          Task { await self.finish(call, with: result) }
        }
      }
    } onCancel: {
      Task { await self.cancel(call) }
    }
  }

  private func finish(_ call: Int, with result: Result<Statement, any Error>) {
    requests[call] = nil
    waiting.removeValue(forKey: call)?.resume(with: result)
  }

  private func cancel(_ call: Int) {
    requests.removeValue(forKey: call)?.cancel()
    waiting.removeValue(forKey: call)?.resume(throwing: CancellationError())
  }
}
