/// The ways a fake's request can end, as a type of the fake's own, such as
/// `enum Outcome: String, RequestOutcome { case opens, refused }`.
///
/// The first case is what a request ends with when the test lets it finish without choosing; the
/// explorer tries every case. In timelines, schedules and replays an outcome is written as its
/// ``token``.
public protocol RequestOutcome: CaseIterable, Hashable, Sendable {
  /// How the outcome is written in a timeline and a schedule: one word without spaces, such as
  /// `refused`. By default the raw value of an enum whose raw values are strings, or else the
  /// case's name.
  var token: String { get }
}

extension RequestOutcome {
  /// The case's name, as `String(describing:)` gives it.
  public var token: String { String(describing: self) }

  /// Every outcome's token, the first case's first.
  static var tokens: [String] { OutcomeTokens.tokens(of: Self.self) }

  /// The outcome whose token is `token`, if there is one.
  init?(token: String) {
    guard let index = Self.tokens.firstIndex(of: token) else { return nil }
    self = Array(Self.allCases)[index]
  }
}

/// The tokens of each outcome type, worked out once: an exploration asks for them in every
/// schedule, and `String(describing:)` of a case costs a walk through the type's metadata.
private enum OutcomeTokens {
  private static let known = Locked([ObjectIdentifier: [String]]())

  static func tokens<Outcome: RequestOutcome>(of type: Outcome.Type) -> [String] {
    if let tokens = known.withLock({ $0[ObjectIdentifier(type)] }) { return tokens }
    let tokens = type.allCases.map(\.token)
    known.withLock { $0[ObjectIdentifier(type)] = tokens }
    return tokens
  }
}

extension RequestOutcome where Self: RawRepresentable, RawValue == String {
  /// The raw value.
  public var token: String { rawValue }
}

extension Requests {
  /// A log of requests that end in one of `outcomes`' cases, the first being the default.
  ///
  /// - Parameters:
  ///   - noun: what a request is called in messages, such as `connect` or `download`.
  ///   - preposition: how a request names its key, as in "connect #1 *to* db".
  ///   - outcomes: the type whose cases are the ways a request can end.
  ///   - scenario: the scenario whose timeline records the requests.
  public convenience init<Outcome: RequestOutcome>(
    noun: String, preposition: String = "of", outcomes: Outcome.Type, scenario: Scenario
  ) {
    let tokens = Outcome.tokens
    checkUsage(
      Set(tokens).count == tokens.count && tokens.allSatisfy { !$0.isEmpty && !$0.contains(" ") },
      "the outcomes of \(noun) are written as distinct words without spaces: \(tokens)")
    self.init(noun: noun, preposition: preposition, outcomes: tokens, scenario: scenario)
  }

  /// Records a request for `key`, waits until the test lets it finish, then answers it with
  /// `respond`, given the request's number (from 1) and the outcome the test chose.
  ///
  /// It is ``perform(for:respond:)`` with the outcome as a case of `Outcome`, the type this log
  /// was made with.
  public func perform<Outcome: RequestOutcome, Response: Sendable>(
    for key: String,
    outcomes: Outcome.Type,
    respond:
      @escaping @Sendable (_ number: Int, _ outcome: Outcome) throws -> (
        response: Response, summary: String
      )
  ) async throws -> Response {
    try await perform(for: key) { number, token in
      guard let outcome = Outcome(token: token) else {
        fatalError("\(token) is not an outcome of \(Outcome.self)")
      }
      return try respond(number, outcome)
    }
  }

  /// Lets request `number` finish with `outcome`, now if it is waiting or as soon as it starts.
  public func release<Outcome: RequestOutcome>(_ number: Int, as outcome: Outcome) {
    release(number, as: outcome.token)
  }

  /// How requests that the test releases without naming an outcome are answered, as a case of
  /// `Outcome`; `nil` when `Outcome` is not the type this log was made with.
  public func defaultOutcome<Outcome: RequestOutcome>(as type: Outcome.Type) -> Outcome? {
    Outcome(token: defaultOutcome)
  }

  /// Makes `outcome` what requests released without naming an outcome are answered with.
  public func setDefaultOutcome<Outcome: RequestOutcome>(_ outcome: Outcome) {
    defaultOutcome = outcome.token
  }
}

extension Requests.Record {
  /// The outcome this request was answered with, as a case of `Outcome`; `nil` while it waits,
  /// when it was cancelled, or when `Outcome` is not the type its log was made with.
  public func outcome<Outcome: RequestOutcome>(as type: Outcome.Type) -> Outcome? {
    outcome.flatMap(Outcome.init(token:))
  }
}
