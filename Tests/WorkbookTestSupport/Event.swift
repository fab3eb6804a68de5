/// Something a test observed: a caller asking, a request reaching a fake, a caller's answer.
struct Event: Sendable {
  enum Kind: Sendable {
    /// A caller started its operation, for example `image(for: cat.png)`.
    case asked(String)
    /// A request reached a fake, for example `download #2 of cat.png`.
    case requestStarted(String)
    /// A fake's request completed, with what it handed back.
    case requestFinished(String)
    /// A task that was waiting in a fake was cancelled.
    case requestCancelled(String)
    /// The caller's operation returned.
    case returned(String)
    /// The caller's operation threw.
    case threw(String)
  }

  /// The caller whose task (or a task it started with `Task {}`) made this happen; `nil` when the
  /// work ran in a detached task, which does not inherit the caller's name.
  let caller: String?
  let kind: Kind
}

/// The name of the caller a task works for: set by ``Scenario`` when it starts a caller, inherited
/// by every `Task {}` that caller creates, and read by the fakes to attribute their requests.
enum CurrentCaller {
  @TaskLocal static var name: String?
}
