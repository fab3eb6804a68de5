import Foundation

/// A value that several threads read and write, guarded by a lock.
///
/// The fakes use `NSLock` rather than the standard library's `Mutex`: on Linux, the Thread
/// Sanitizer reports false races inside `Mutex`, and `swift test --sanitize=thread` over the
/// solutions must stay quiet.
public final class Locked<State>: @unchecked Sendable {
  private let lock = NSLock()
  private var state: State

  public init(_ state: State) {
    self.state = state
  }

  public func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&state)
  }

  public var value: State {
    withLock { $0 }
  }
}
