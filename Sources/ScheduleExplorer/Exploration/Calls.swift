/// A call that only its method names, such as `snapshot()`, all of whose callers ask for the same
/// thing, named by `key`.
public struct MethodCall: ExploredCall {
  public let description: String
  public let key: String?

  public init(_ method: String, key: String? = nil) {
    description = method
    self.key = key
  }
}
