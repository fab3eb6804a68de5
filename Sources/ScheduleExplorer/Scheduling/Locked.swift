import Foundation

/// A value that several threads read and write, guarded by a lock.
///
/// The fakes use `NSLock` rather than the standard library's `Mutex`: on Linux, the Thread
/// Sanitizer reports false races inside `Mutex`, and `swift test --sanitize=thread` over the
/// solutions must stay quiet.
public final class Locked<State>: @unchecked Sendable {
  private let lock = NSLock()
  private var state: State

  /// Guards `state`, which from now on is read and written only through the lock.
  public init(_ state: State) {
    self.state = state
  }

  /// Runs `body` with the state, holding the lock, and hands back what `body` returns.
  public func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&state)
  }

  /// A copy of the state, read under the lock.
  public var value: State {
    withLock { $0 }
  }
}
