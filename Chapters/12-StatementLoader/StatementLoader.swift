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
    try await withCheckedThrowingContinuation { continuation in
      _ = client.fetchStatement(for: month) { statement, error in
        if let error {
          continuation.resume(throwing: error)
        } else if let statement {
          continuation.resume(returning: statement)
        }
      }
    }
  }
}
