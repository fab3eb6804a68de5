import Foundation
import ScheduleExplorer
import Services
import Testing

/// An ``Exchange`` whose order submissions wait until the test lets them finish.
///
/// What ``Exchange`` documents, and how this fake does it:
/// - "Where orders go": every order waits until the test lets it finish, in any order.
/// - "Sends an order and waits": the outcome `accept`, a confirmation numbered as the order.
/// - "Throws ``OrderRejected``": the outcome `reject`.
/// - "Any other error": the outcome `unknown`, a ``FakeNetworkError`` for an answer lost on its
///   way back, and the outcome `timeout`, a URLError whose code is timedOut, as a client built
///   on URLSession throws when the answer is late; and a cancelled caller, whose wait ends at once
///   with `CancellationError`, or winds down (the outcome `cancelled`, or, after
///   ``windsDownCancelledOrdersLikeURLSession()``, the outcome `URLError.cancelled`), or is
///   answered anyway (``answersCancelledOrders``).
public final class FakeExchange: Exchange, FakeService {
  public let requests: Requests

  public init(_ scenario: Scenario) {
    requests = Requests(
      noun: "order", preposition: "for", outcomes: ["accept", "reject", "unknown", "timeout"],
      scenario: scenario)
  }

  /// Whether orders are rejected when the test lets them finish without choosing.
  public var rejectsOrders: Bool {
    get { requests.defaultOutcome == "reject" }
    set { requests.defaultOutcome = newValue ? "reject" : "accept" }
  }

  /// Whether an order whose caller is cancelled is still answered, accepted or rejected, as an
  /// exchange answers that has already started on it. By default the caller's wait ends at once,
  /// throwing `CancellationError`.
  public var answersCancelledOrders: Bool {
    get { requests.cancellation == .isIgnored }
    set { requests.cancellation = newValue ? .isIgnored : .throwsAtOnce }
  }

  /// How a cancelled order's wait ends when it ends the way a client built on `URLSession` ends
  /// it: throwing `URLError(.cancelled)`, not Swift's `CancellationError`.
  public static let cancelledLikeURLSession = "URLError.cancelled"

  /// Lets a cancelled caller's wait wind down until the test releases it, as a client's transfer
  /// does, and end as ``cancelledLikeURLSession`` when the test names that outcome.
  public func windsDownCancelledOrdersLikeURLSession() {
    requests.cancellation = .windsDown
    requests.mayEndCancelled(as: Self.cancelledLikeURLSession) { URLError(.cancelled) }
  }

  /// How many orders reached the exchange.
  public var ordersReceived: Int { requests.started }

  public func submit(_ order: Order) async throws -> OrderConfirmation {
    let key = "\(order.quantity) \(order.symbol) (\(dollars(order.cost)))"
    return try await requests.perform(for: key) { number, outcome in
      switch outcome {
      case "reject": throw OrderRejected(reason: "the market is closed")
      // The answer was lost on its way back: the order may well have been filled.
      case "unknown": throw FakeNetworkError(request: number)
      // Timed out waiting for the answer, which may still come to nothing or to a fill.
      case "timeout": throw URLError(.timedOut)
      default: break
      }
      return (OrderConfirmation(orderID: number, order: order), "is accepted")
    }
  }
}

/// An amount of money, as timelines and messages show it: `$40.00`.
public struct Money: Comparable, Sendable, CustomTestStringConvertible {
  public let cents: Int

  public init(cents: Int) {
    self.cents = cents
  }

  public var testDescription: String { dollars(cents) }

  public static func < (lhs: Money, rhs: Money) -> Bool {
    lhs.cents < rhs.cents
  }
}

/// An amount in cents as dollars, such as `$60.00` or `−$20.00`.
public func dollars(_ cents: Int) -> String {
  let sign = cents < 0 ? "−" : ""
  let magnitude = abs(cents)
  let fraction = magnitude % 100
  return "\(sign)$\(magnitude / 100).\(fraction < 10 ? "0" : "")\(fraction)"
}

extension OrderConfirmation: CustomTestStringConvertible {
  /// `confirmation of order #1`, naming the fake request that accepted it.
  public var testDescription: String {
    "confirmation of order #\(orderID)"
  }
}
