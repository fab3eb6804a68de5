/// An actor in the world the explorer runs it in: its fakes, the calls callers can make, and the
/// promise it keeps.
///
/// The explorer builds a fresh world for every schedule, so nothing carries over between two
/// runs. A chapter's test file writes one of these next to its scripted tests:
///
/// ```swift
/// struct ImageCacheWorld: ExplorationWorld {
///   let client: FakeImageClient
///   let cache: ImageCache
///   init(_ scenario: Scenario) { … }
///   var fakes: [any FakeService] { [client] }
///   func perform(_ call: Call) async throws -> any Sendable { … }
///   func checkPromise(_ moment: Moment<Self>) async { … }
/// }
/// ```
public protocol ExplorationWorld: Sendable {
  /// What a caller can ask the actor, such as `image(for: cat.png)`.
  associatedtype Call: ExploredCall

  init(_ scenario: Scenario)

  /// Brings a fresh world to where every schedule starts, such as a dashboard that has loaded
  /// once; by default, nothing. It runs before the first choice, and its steps are in the timeline.
  /// The names A, B, … of the exploration's callers are kept for them: a caller started here by
  /// count, as ``Scenario/call(_:_:)`` does, takes the first name after them.
  func prepare(_ scenario: Scenario) async throws

  /// Waits until nothing more can happen without a choice of the explorer's. By default, until
  /// the scheduler has nothing of the scenario's left to run (``Scenario/settle()``); a world
  /// whose work runs where the scheduler cannot see it, on the main actor, says what settled
  /// means for it.
  func settle(_ scenario: Scenario) async throws

  /// The fakes whose waiting requests the explorer answers.
  var fakes: [any FakeService] { get }

  /// Makes `call` on the actor, as a caller's task does.
  func perform(_ call: Call) async throws -> any Sendable

  /// What the world can do on its own right now, such as a socket delivering its next message.
  func steps() -> [WorldStep]

  /// Takes the step named `name`, one of ``steps()``.
  func take(_ name: String)

  /// Checks the chapter's promise at a settled moment, recording with ``Moment/expect(_:_:_:)``
  /// whatever does not hold. It may ask the actor about its state: at a settled moment the actor is
  /// free, and a question that does not suspend changes nothing. It is not asked at a moment
  /// where a caller is held on its way into another actor, which keeps that actor for the
  /// caller, so that a question that reads through it would wait for the hold to end (an actor
  /// whose money lives in a ledger actor of its own reads `available` there); the next settled
  /// moment is checked.
  func checkPromise(_ moment: Moment<Self>) async

  /// The command that a printed replay line starts with, in place of `swift test`, for tests that
  /// are built some other way, such as one part of a larger package; `nil` by default. The
  /// environment's `SCHEDULE_EXPLORER_TEST_COMMAND`, when set, comes first.
  static var replayCommand: String? { get }
}

extension ExplorationWorld {
  /// Does nothing: a schedule starts from a freshly made world.
  public func prepare(_ scenario: Scenario) async throws {}
  /// Waits until nothing of the scenario can run (``Scenario/settle()``).
  public func settle(_ scenario: Scenario) async throws { try await scenario.settle() }
  /// None: the world outside does nothing on its own.
  public func steps() -> [WorldStep] { [] }
  /// Does nothing, as there are no steps to take.
  public func take(_ name: String) {}
  /// None: a replay line starts with `swift test`.
  public static var replayCommand: String? { nil }
}

/// A call a caller can make in an exploration.
public protocol ExploredCall: Hashable, Sendable, CustomStringConvertible {
  /// What the call is for, such as `cat.png`, when the promise speaks of callers of the same key;
  /// `nil` for a call that is for no key. The description is how the timeline shows the call.
  var key: String? { get }
}

extension ExploredCall {
  /// `nil`: the call is for no key.
  public var key: String? { nil }
}

/// Something a world can do on its own at a settled moment.
public struct WorldStep: Sendable {
  /// How the step reads in a schedule: one lowercase word, such as `deliver`.
  public let name: String
  /// Whether a replayed schedule that has run out of steps takes this one to bring the run to its
  /// end, as closing a socket does. Steps that only add work, such as delivering another message,
  /// are not taken.
  public let endsTheRun: Bool

  /// A step named `name`, one lowercase word, that ends the run if `endsTheRun`.
  public init(_ name: String, endsTheRun: Bool = false) {
    self.name = name
    self.endsTheRun = endsTheRun
  }
}

/// A settled moment of one schedule: what the callers and the fakes have seen so far.
public final class Moment<World: ExplorationWorld>: Sendable {
  /// The world of this schedule, whose fakes and actor the promise may ask about.
  public let world: World
  /// Every caller started so far, in the order they started.
  public let callers: [CallerRecord]
  /// Whether the schedule has ended: every caller has had its chance to return.
  public let isEnd: Bool
  private let calls: [String: World.Call]
  private let broken = Locked<[BrokenPromise]>([])

  /// Each caller whose call is for a key, with that key.
  public let keyed: [(caller: CallerRecord, key: String)]

  /// Whether a task that a world event started is held back (see
  /// ``ExplorationBounds/lateTasks``).
  private let aTaskIsHeld: Bool

  init(
    world: World, callers: [CallerRecord], calls: [String: World.Call], isEnd: Bool,
    aTaskIsHeld: Bool = false
  ) {
    self.world = world
    self.callers = callers
    self.calls = calls
    self.isEnd = isEnd
    self.aTaskIsHeld = aTaskIsHeld
    keyed = callers.compactMap { caller in calls[caller.name]?.key.map { (caller, $0) } }
  }

  /// What caller `record` asked.
  public func call(of record: CallerRecord) -> World.Call {
    calls[record.name]!
  }

  /// Whether the test holds a caller back in a gap right now, or a task that a world event
  /// started, such as a cancellation handler's. What is held back has not happened yet, so a
  /// promise about the actor's state may have to wait for it.
  public var someoneIsHeld: Bool {
    aTaskIsHeld || callers.contains(where: \.isHeld)
  }

  /// Records that `condition` does not hold: the part of the promise named `rule` is broken.
  ///
  /// - Parameters:
  ///   - rule: a short name of the promise's part, such as "one download per image"; shrinking a
  ///     failing schedule keeps only schedules that break the same part.
  ///   - message: what was expected, what happened, and where; a timeline follows it.
  public func expect(
    _ condition: Bool, _ rule: String, _ message: @autoclosure () -> String
  ) {
    guard !condition else { return }
    let text = message()
    broken.withLock { $0.append(BrokenPromise(rule: rule, message: text)) }
  }

  var brokenPromises: [BrokenPromise] {
    broken.value
  }
}

struct BrokenPromise: Sendable {
  let rule: String
  let message: String
}
