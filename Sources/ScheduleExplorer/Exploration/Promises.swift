import Foundation

/// The parts of a promise that several chapters make, written once.
///
/// Each speaks of the callers of one key (``ExploredCall/key``: `cat.png`, the order book, a
/// refresh token) and of the fake's ``Requests``, and records what does not hold with
/// ``Moment/expect(_:_:_:)``. A call without a key is left out of every one of them: with no
/// keys at all, they check nothing.
extension Moment {

  /// A request for a key starts only when no earlier one for it is still running, and, when the
  /// actor keeps what it got (`keepsSuccess`), only after every earlier one has failed.
  ///
  /// - Parameters:
  ///   - succeeded: whether a finished request brought back something usable.
  ///   - round: which round a request belongs to, when something the actor is told (such as
  ///     "the book changed") starts a new round in which a fresh request is expected; requests of
  ///     different rounds are not compared.
  public func expectOneRequestAtATime(
    per requests: Requests, keepsSuccess: Bool, succeeded: (Requests.Record) -> Bool,
    round: (Requests.Record) -> Int = { _ in 0 }
  ) {
    let records = requests.records
    for later in records {
      for earlier in records
      where earlier.key == later.key && earlier.startedAt < later.startedAt
        && round(earlier) == round(later)
      {
        let stillRunning =
          earlier.answeredAt.map { $0 > later.startedAt } ?? true
        let abandoned = earlier.cancelledAt.map { $0 < later.startedAt } ?? false
        if stillRunning && !abandoned {
          expect(
            false, "one \(requests.noun) at a time",
            """
            \(requests.name(of: later))\(whose(later)) started while \
            \(requests.name(of: earlier))\(whose(earlier)) was still running; expected one \
            \(requests.noun) of \(later.key) at a time, shared by every caller who asks while it \
            runs.
            """)
          return
        }
        if keepsSuccess && !stillRunning && succeeded(earlier) {
          let gap =
            callers.first { $0.name == earlier.caller && $0.isHeld && !$0.hasFinished }.map {
              " Caller \($0.name), who was waiting for it, had not yet resumed: the new request came in that gap."
            } ?? ""
          expect(
            false, "one \(requests.noun) at a time",
            """
            \(requests.name(of: later))\(whose(later)) started after \
            \(requests.name(of: earlier))\(whose(earlier)) had already succeeded: it fetched \
            again what the first had brought back, for a caller who could have had that.\(gap)
            """)
          return
        }
      }
    }
  }

  /// Every caller who got a value for the same key got the same value.
  public func expectAgreement<Value: Equatable & Sendable>(
    on type: Value.Type
  ) {
    var first: [String: (CallerRecord, Value)] = [:]
    for (caller, key) in keyed {
      guard let value = caller.value(as: Value.self) else { continue }
      if let (earlier, seen) = first[key] {
        expect(
          seen == value, "callers agree",
          """
          Callers \(earlier.name) and \(caller.name) both asked for \(key) and got different \
          answers: \(earlier.name) got \(describe(seen)), \(caller.name) got \(describe(value)). \
          Every caller should get the same one.
          """)
      } else {
        first[key] = (caller, value)
      }
    }
  }

  /// Once a caller has returned a value for a key, no request for that key starts: the value is
  /// kept.
  ///
  /// - Parameter subject: the key a request is for in the callers' terms, when it is not the
  ///   request's own key (a refresh is made *with* a refresh token, *for* the access token).
  public func expectKeepsWhatItReturned(
    _ requests: Requests, subject: (Requests.Record) -> String = \.key
  ) {
    let records = requests.records
    for (caller, key) in keyed {
      guard let finished = caller.finishedAt, caller.error == nil else { continue }
      let later = records.first { subject($0) == key && $0.startedAt > finished }
      expect(
        later == nil, "what was fetched is kept",
        """
        Caller \(caller.name) had already got \(describeResult(caller)) for \(key), yet \
        \(later.map(requests.name(of:)) ?? "a request") started afterwards: what a caller was \
        given should be kept, so that the next caller gets it without a request.
        """)
    }
  }

  /// A caller that threw (other than for its own cancellation) threw the failure of a request for
  /// its key that was under way while it asked: a failure is passed on, never kept for later.
  ///
  /// - Parameters:
  ///   - failed: whether a finished request is one whose failure a caller may pass on.
  ///   - subject: the key a request is for in the callers' terms, if not its own key.
  public func expectFailuresAreFresh(
    _ requests: Requests, failed: (Requests.Record) -> Bool,
    subject: (Requests.Record) -> String = \.key
  ) {
    let records = requests.records
    for (caller, key) in keyed {
      // Cancellation is not a request's failure; the chapters that cancel say what it must do.
      guard let finished = caller.finishedAt, let error = caller.error, !isCancellation(error)
      else { continue }
      // The failure may come from a request still running when the caller asked, or from one
      // that had failed but whose own caller had not yet resumed to hear of it: to the actor, that
      // request was still under way.
      let source = records.first { record in
        let ownerStillWaiting =
          callers.first { $0.name == record.caller }.map {
            ($0.finishedAt ?? .max) > caller.startedAt
          } ?? false
        return subject(record) == key && record.startedAt < finished && failed(record)
          && (record.answeredAt ?? .max > caller.startedAt || ownerStillWaiting)
      }
      expect(
        source != nil, "a failure is not kept",
        """
        Caller \(caller.name) threw \(describe(error)), but no \(requests.noun) of \(key) failed \
        while it was asking: it was handed the failure of a \(requests.noun) that had ended \
        before it asked, instead of a \(requests.noun) of its own.
        """)
    }
  }

  /// At a settled moment with nobody held, every caller still waiting is waiting for a request of
  /// its own key that is running: nothing waits behind work for another key.
  ///
  /// - Parameter subject: the key a request is for in the callers' terms, if not its own key.
  public func expectNobodyWaitsForAnotherKey(
    _ requests: Requests, subject: (Requests.Record) -> String = \.key
  ) {
    guard !someoneIsHeld else { return }
    let running = requests.records.filter(\.isInFlight)
    for (caller, key) in keyed where !caller.hasFinished {
      guard !running.contains(where: { subject($0) == key }) else { continue }
      let others = running.filter { subject($0) != key }
      let behind =
        others.isEmpty
        ? "" : "; it waits behind \(others.map(requests.name(of:)).joined(separator: ", "))"
      expect(
        false, "nobody waits for another key",
        """
        Caller \(caller.name) asked for \(key) and is waiting, but no \(requests.noun) for \(key) \
        is running\(behind). Callers of different keys should not wait for each other.
        """)
    }
  }

  /// Whether `error` says that work was cancelled: Swift's `CancellationError`, or the
  /// `URLError(.cancelled)` that `URLSession` throws for a cancelled transfer.
  public func isCancellation(_ error: (any Error)?) -> Bool {
    error is CancellationError || (error as? URLError)?.code == .cancelled
  }

  /// ` (caller B's)`, naming whose work made a request.
  private func whose(_ record: Requests.Record) -> String {
    record.caller.map { " (caller \($0)'s)" } ?? ""
  }

  /// What a caller got, as a message says it: `image #1`, or `an error (…)`.
  public func describeResult(_ caller: CallerRecord) -> String {
    switch caller.result {
    case .success(let value)?: describe(value)
    case .failure(let error)?: "an error (\(describe(error)))"
    case nil: "nothing yet"
    }
  }
}
