/// A month's statement of a trading account, as the statements service sends it.
public struct Statement: Hashable, Sendable {
  /// The month it covers, such as `2026-11`.
  public let month: String
  /// The account's balance at the end of that month, in cents.
  public let closingBalance: Int

  public init(month: String, closingBalance: Int) {
    self.month = month
    self.closingBalance = closingBalance
  }
}

/// The statements service's client from before Swift concurrency: every call returns at once, and
/// the answer comes through a completion handler, on a thread of the client's own. That thread may
/// call it before the call that started the request has returned.
public protocol LegacyStatementClient: Sendable {
  /// Starts fetching the statement for `month`, and returns the request under way.
  ///
  /// The client calls `completion`:
  /// - with the statement, or with an error;
  /// - with neither, when the service holds no statement for that month;
  /// - twice, when the request times out: first with ``LegacyTimeout``, then, if the statement
  ///   arrives after all, with the statement;
  /// - never, once the request has been cancelled.
  func fetchStatement(
    for month: String, completion: @escaping @Sendable (Statement?, (any Error)?) -> Void
  ) -> any LegacyRequest
}

/// A request that the legacy client has started.
public protocol LegacyRequest: Sendable {
  /// Calls the request off. The service stops working on it, and the client never calls its
  /// completion handler afterwards.
  func cancel()
}

/// The legacy client's report that a request took too long; its answer may still arrive.
public struct LegacyTimeout: Error, Hashable, Sendable {
  public init() {}
}

/// The statements service holds no statement for the month asked for.
public struct NoStatement: Error, Hashable, Sendable {
  public let month: String

  public init(month: String) {
    self.month = month
  }
}
