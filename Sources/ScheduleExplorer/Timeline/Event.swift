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
    /// The caller's operation returned, with a value unless it returns nothing.
    case returned(String?)
    /// The caller's operation threw.
    case threw(String)
    /// Something a fake did on its own, such as a socket delivering a message.
    case observed(String)
    /// The test itself stepped in, for example to let the downloads finish.
    case test(String)
  }

  /// The caller whose task (or a task it started with `Task {}`) made this happen; `nil` when the
  /// work ran in a detached task, which does not inherit the caller's name, or for the test's own
  /// steps.
  let caller: String?
  let kind: Kind

  /// How the event reads in its lane of the timeline.
  var text: String {
    switch kind {
    case .asked(let operation): "calls \(operation)"
    case .requestStarted(let request): "\(request) starts"
    case .requestFinished(let outcome): outcome
    case .requestCancelled(let request): "\(request) is cancelled"
    case .returned(let value): value.map { "gets \($0)" } ?? "returns"
    case .threw(let error): "throws: \(error)"
    case .observed(let what): what
    case .test(let step): step
    }
  }

  var isTestStep: Bool {
    if case .test = kind { true } else { false }
  }
}

/// The name of the caller a task works for: set by ``Scenario`` when it starts a caller, inherited
/// by every `Task {}` that caller creates, and read by the fakes to attribute their requests.
public enum CurrentCaller {
  /// The caller's name, such as `A`, or `nil` in work that carries no caller's name: the test's
  /// own, or a `Task.detached`'s. A fake that does work of its own, such as a socket delivering a
  /// message, binds it to a name of its own (`socket`) with `$name.withValue(_:operation:)`.
  @TaskLocal public static var name: String?
}
