import Foundation
import ScheduleExplorer
import Services

/// A ``LegacyStatementClient`` that calls back on a thread of its own, the moment the test says,
/// for tests that race its answer against a cancellation on another thread.
///
/// Unlike ``FakeStatementClient``, whose callbacks run on the scheduler's thread, this one really
/// answers from elsewhere. It keeps the protocol's promise to the letter: once `cancel()` has
/// returned, it starts no callback. A callback it had already started may still be running, as a
/// real client's may: `cancel()` does not wait for it. (One that did deadlocked a correct bridge
/// in the course's own runs: a cancellation handler runs while the runtime holds its task's
/// status lock, and there `cancel()` waited for a callback that was resuming that same task,
/// which needs the lock.)
///
/// What ``LegacyStatementClient`` documents, and how this fake does it:
/// - "The statements service's client from before Swift concurrency": every fetch returns at once;
///   ``Fetch/answer()`` calls back on whatever thread calls it.
/// - "That thread may call it before the call that started the request has returned":
///   `whenStarted` can answer from another thread inside `fetchStatement`.
/// - "Starts fetching the statement": each ``Fetch`` waits for the test.
/// - "with the statement, or with an error": the statement only; an error is not produced (these
///   tests race an answer against a cancellation, and ``FakeStatementClient`` fails fetches).
/// - "with neither": not produced: ``FakeStatementClient`` answers with neither.
/// - "twice, when the request times out": not produced: ``FakeStatementClient`` times out.
/// - "never, once the request has been cancelled": once `cancel()` has returned, never.
public final class ThreadedStatementClient: LegacyStatementClient {
  /// One fetch under way.
  ///
  /// What ``LegacyRequest`` documents, and how this fake does it:
  /// - "A request that the legacy client has started": the fetch, until it answers.
  /// - "Calls the request off": `cancel()` forgets the completion handler, under the fetch's lock.
  /// - "The service stops working on it": no callback starts once `cancel()` has returned; one
  ///   that had started may still be running.
  public final class Fetch: LegacyRequest, @unchecked Sendable {
    private let lock = NSLock()
    private var completion: (@Sendable (Statement?, (any Error)?) -> Void)?
    private var calledOff = false
    let month: String

    init(month: String, completion: @escaping @Sendable (Statement?, (any Error)?) -> Void) {
      self.month = month
      self.completion = completion
    }

    /// Calls back with the statement, unless the fetch was called off first.
    public func answer() {
      let completion = lock.withLock {
        defer { self.completion = nil }
        return self.completion
      }
      completion?(Statement(month: month, closingBalance: 100_000), nil)
    }

    public func cancel() {
      lock.withLock {
        completion = nil
        calledOff = true
      }
    }

    /// Whether the caller's code has called the fetch off.
    public var wasCalledOff: Bool {
      lock.withLock { calledOff }
    }
  }

  private let fetches = Locked<[Fetch]>([])
  private let started = Locked<[CheckedContinuation<Fetch, Never>]>([])
  private let whenStarted: @Sendable (Fetch) -> Void

  /// - Parameter whenStarted: called with each fetch inside `fetchStatement`, on the caller's
  ///   thread, before it returns and before ``firstFetch()`` hears of it: a test can start other
  ///   threads there that answer or cancel while the caller is still starting the request.
  public init(whenStarted: @escaping @Sendable (Fetch) -> Void = { _ in }) {
    self.whenStarted = whenStarted
  }

  public func fetchStatement(
    for month: String, completion: @escaping @Sendable (Statement?, (any Error)?) -> Void
  ) -> any LegacyRequest {
    let fetch = Fetch(month: month, completion: completion)
    let waiting = fetches.withLock { fetches in
      fetches.append(fetch)
      return started.withLock { started in
        defer { started = [] }
        return started
      }
    }
    whenStarted(fetch)
    for continuation in waiting { continuation.resume(returning: fetch) }
    return fetch
  }

  /// The first fetch, once it has started.
  public func firstFetch() async -> Fetch {
    await withCheckedContinuation { continuation in
      let fetch = fetches.withLock { fetches in
        if fetches.isEmpty { started.withLock { $0.append(continuation) } }
        return fetches.first
      }
      if let fetch { continuation.resume(returning: fetch) }
    }
  }
}
