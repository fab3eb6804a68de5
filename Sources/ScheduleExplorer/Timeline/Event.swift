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

  /// The caller whose task, or a task it started, made this happen (``CurrentCaller/name``);
  /// `nil` for the test's own steps and for work that no caller started.
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

  /// Whether its caller's own work did it: not an answer or a cancellation that reached a request
  /// while its caller may be held.
  var showsItsCallerRunning: Bool {
    switch kind {
    case .requestFinished, .requestCancelled, .test: false
    case .asked, .requestStarted, .returned, .threw, .observed: true
    }
  }

  var isTestStep: Bool {
    if case .test = kind { true } else { false }
  }

  /// What the timeline says, in the lane of work nobody's name is on, when a task of the world
  /// went on where the scheduler could not see it (``Scheduler/noteWorkOutside(_:)``).
  static let workOutsideTheScheduler = "a task goes on on a thread the tests do not control"
}

/// The name of the caller a task works for: set by ``Scenario`` when it starts a caller, inherited
/// by every `Task {}` that caller creates, and read by the fakes to attribute their requests.
public enum CurrentCaller {
  /// The caller's name, such as `A`, or `nil` in work that carries no caller's name, such as the
  /// test's own.
  ///
  /// A `Task.detached` inherits no task-local value, but where the scheduler saw a caller's work
  /// create it, it carries that caller's name all the same: the caller who started the work is
  /// the one who waits for it, and the one a message about it should name.
  public static var name: String? {
    bound ?? TaskCreators.callerOfCurrentTask
  }

  /// Runs `operation` as work of `name`, such as a fake's own work under a name of its own
  /// (`socket`), or the test's own (`nil`).
  public static func withName<Result>(
    _ name: String?, operation: () throws -> Result
  ) rethrows -> Result {
    try $bound.withValue(.some(name), operation: operation)
  }

  /// Runs `operation` as work of `name`; see ``withName(_:operation:)``.
  public static func withName<Result>(
    _ name: String?,
    isolation: isolated (any Actor)? = #isolation,
    operation: () async throws -> Result
  ) async rethrows -> Result {
    try await $bound.withValue(.some(name), operation: operation)
  }

  /// The name bound by ``withName(_:operation:)``, even if `nil`; `.none` where nothing is bound.
  @TaskLocal private static var bound: String?? = .none
}
