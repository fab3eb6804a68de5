/// A call that only its method names, such as `snapshot()`, all of whose callers ask for the same
/// thing, named by `key`.
public struct MethodCall: ExploredCall {
  /// The call as the timeline shows it, such as `snapshot()`.
  public let description: String
  /// What every caller of this call asks for, if the promise speaks of it.
  public let key: String?

  /// A call named `method`, such as `acquire()`, for `key` if it has one.
  public init(_ method: String, key: String? = nil) {
    description = method
    self.key = key
  }
}
