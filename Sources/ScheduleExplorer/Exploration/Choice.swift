/// One decision the explorer makes at a settled moment: the only kind of moment at which anything
/// that changes an actor's outcome can be decided, because between two of them the actor runs
/// alone.
///
/// A schedule is a list of choices. Written out, each choice is one short token, so that a whole
/// schedule fits on one line and can be handed back to the test to replay it:
///
/// | token            | choice                                                              |
/// | ---------------- | ------------------------------------------------------------------- |
/// | `B`              | caller B makes its call                                             |
/// | `A=image`        | A's waiting request finishes with the outcome `image`               |
/// | `A.news=error`   | the same, naming the request's key when A has several waiting        |
/// | `A=image+hold`   | the same, and A is held in the gap before it can resume              |
/// | `hold:B`         | B is held: whatever would resume it next waits, while others run      |
/// | `resume:A`       | the held caller A may resume                                        |
/// | `cancel:A`       | A's task is cancelled                                               |
/// | `deliver`        | the world takes a step of its own, such as a socket delivering      |
/// | `task:2`         | of the tasks ready together, the second to become ready runs first   |
/// | `hold:task1`     | the first task a world event started (a cancellation handler's Task) waits |
/// | `run:task1`      | the same task runs as soon as it is ready                           |
/// | `resume:task1`   | the held task may run                                               |
/// | `away:A.2`       | after the step before it, A is held where it leaves the actor for    |
/// |                  | the second time, to work off it, while the others run                |
///
/// `task:2`, `hold:task1` and `run:task1` are decided while the actor runs, not at a settled
/// moment: where several tasks that no caller runs in its lane are ready at once, which one
/// starts first is the runtime's choice, and so is how late a task starts that a cancellation
/// handler or a callback created; so they are the explorer's too. `away:A.2` is decided at the
/// settled moment, with the step before it, and bites while the actor runs: how soon a caller
/// that stepped off the actor gets to run what it stepped off for is the runtime's choice too.
enum Choice: Hashable, Sendable, CustomStringConvertible {
  case start(caller: String)
  case answer(caller: String?, key: String?, outcome: String, hold: Bool)
  case hold(caller: String)
  case resume(caller: String)
  case cancel(caller: String)
  case step(String)
  /// Of the tasks ready together, the one that became ready in this position (from 1) runs first.
  case task(Int)
  /// The `number`th task of the schedule that may start late, one that a world event started from
  /// outside the actor's jobs (the `Task {}` a cancellation handler creates) or one that the
  /// actor's work started, is held back, or runs when ready.
  case late(task: Int, held: Bool)
  /// The task held back as `number` may run.
  case resumeTask(Int)
  /// Until the next settled moment, caller `caller`'s task is held where it leaves an actor for
  /// the `leaving`th time (from 1) to run code off it, such as a `@concurrent` function.
  case away(caller: String, leaving: Int)
  /// Nobody is held where they leave the actor until the next settled moment: the choice that
  /// ``away(caller:leaving:)`` is an alternative to. It is never written in a schedule.
  case nobodyAway

  /// The name used for a request whose work carries no caller's name: work that no caller
  /// started.
  static let unnamed = "nobody"

  var description: String {
    switch self {
    case .start(let caller): caller
    case .answer(let caller, let key, let outcome, let hold):
      (caller ?? Self.unnamed) + (key.map { ".\(Self.compact($0))" } ?? "") + "=\(outcome)"
        + (hold ? "+hold" : "")
    case .hold(let caller): "hold:\(caller)"
    case .resume(let caller): "resume:\(caller)"
    case .cancel(let caller): "cancel:\(caller)"
    case .step(let name): name
    case .task(let position): "task:\(position)"
    case .late(let number, let held): "\(held ? "hold" : "run"):task\(number)"
    case .resumeTask(let number): "resume:task\(number)"
    case .away(let caller, let leaving): "away:\(caller).\(leaving)"
    case .nobodyAway: ""
    }
  }

  /// Whether the choice is a step of its own, made at a settled moment, rather than one made
  /// while the actor runs or with the step before it.
  var isSettledChoice: Bool {
    switch self {
    case .task, .late, .away, .nobodyAway: false
    default: true
    }
  }

  /// A key as a token spells it: without spaces.
  static func compact(_ key: String) -> String {
    key.filter { !$0.isWhitespace }
  }

  /// Reads a token back; `nil` when it is not one.
  init?(token: String) {
    if let position = token.dropPrefix("task:").flatMap({ Int($0) }), position > 0 {
      self = .task(position)
    } else if let number = token.dropPrefix("hold:task").flatMap({ Int($0) }), number > 0 {
      self = .late(task: number, held: true)
    } else if let number = token.dropPrefix("run:task").flatMap({ Int($0) }), number > 0 {
      self = .late(task: number, held: false)
    } else if let number = token.dropPrefix("resume:task").flatMap({ Int($0) }), number > 0 {
      self = .resumeTask(number)
    } else if let away = token.dropPrefix("away:"), let dot = away.lastIndex(of: "."),
      let leaving = Int(away[away.index(after: dot)...]), leaving > 0, dot > away.startIndex,
      away[..<dot].allSatisfy(\.isUppercase)
    {
      self = .away(caller: String(away[..<dot]), leaving: leaving)
    } else if let caller = token.dropPrefix("hold:") {
      self = .hold(caller: caller)
    } else if let caller = token.dropPrefix("resume:") {
      self = .resume(caller: caller)
    } else if let caller = token.dropPrefix("cancel:") {
      self = .cancel(caller: caller)
    } else if let equals = token.firstIndex(of: "=") {
      var outcome = String(token[token.index(after: equals)...])
      let hold = outcome.hasSuffix("+hold")
      if hold { outcome.removeLast("+hold".count) }
      let who = token[..<equals]
      let dot = who.firstIndex(of: ".")
      let caller = String(who[..<(dot ?? who.endIndex)])
      let key = dot.map { String(who[who.index(after: $0)...]) }
      guard !caller.isEmpty, !outcome.isEmpty else { return nil }
      self = .answer(
        caller: caller == Self.unnamed ? nil : caller, key: key, outcome: outcome, hold: hold)
    } else if let first = token.first, first.isUppercase {
      self = .start(caller: token)
    } else if let first = token.first, first.isLowercase {
      self = .step(token)
    } else {
      return nil
    }
  }
}

extension String {
  fileprivate func dropPrefix(_ prefix: String) -> String? {
    hasPrefix(prefix) && count > prefix.count ? String(dropFirst(prefix.count)) : nil
  }
}

/// A schedule written on one line, as failure messages print it and the test replays it.
struct Schedule: Sendable, CustomStringConvertible {
  var choices: [Choice]

  var description: String {
    choices.map(\.description).joined(separator: " ")
  }

  init(_ choices: [Choice]) {
    self.choices = choices
  }

  /// Reads a schedule back, or says which token it cannot read.
  init(parsing text: String) throws(ScheduleError) {
    var choices: [Choice] = []
    for token in text.split(whereSeparator: \.isWhitespace) {
      guard let choice = Choice(token: String(token)) else {
        throw ScheduleError(description: "`\(token)` is not a step of a schedule")
      }
      choices.append(choice)
    }
    self.choices = choices
  }
}

struct ScheduleError: Error, CustomStringConvertible {
  let description: String
}
