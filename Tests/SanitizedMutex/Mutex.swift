// Built into a chapter only by Scripts/check-threads (WORKBOOK_SANITIZER), never into a check.
//
// On Linux the standard library's `Mutex` waits for a contended lock inside the Synchronization
// module, which is not built for the Thread Sanitizer, so the sanitizer never sees that thread
// take the lock, and reports accesses that the lock does order. This `Mutex`, declared in the
// chapter's own module, hides the standard library's from the chapter's code and has the same
// interface, with a pthread mutex underneath, whose locking the sanitizer sees. An access made
// outside the lock is reported as before.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value and the lock that guards it, seen by the Thread Sanitizer.
public struct Mutex<Value: ~Copyable>: ~Copyable, @unchecked Sendable {
  private final class Storage: @unchecked Sendable {
    let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    var value: Value

    init(_ value: consuming Value) {
      self.value = value
      pthread_mutex_init(lock, nil)
    }

    deinit {
      pthread_mutex_destroy(lock)
      lock.deallocate()
    }
  }

  private let storage: Storage

  public init(_ initialValue: consuming sending Value) {
    storage = Storage(initialValue)
  }

  public borrowing func withLock<Result: ~Copyable, E: Error>(
    _ body: (inout sending Value) throws(E) -> sending Result
  ) throws(E) -> sending Result {
    pthread_mutex_lock(storage.lock)
    defer { pthread_mutex_unlock(storage.lock) }
    return try body(&storage.value)
  }

  public borrowing func withLockIfAvailable<Result: ~Copyable, E: Error>(
    _ body: (inout sending Value) throws(E) -> sending Result
  ) throws(E) -> sending Result? {
    guard pthread_mutex_trylock(storage.lock) == 0 else { return nil }
    defer { pthread_mutex_unlock(storage.lock) }
    return try body(&storage.value)
  }
}
