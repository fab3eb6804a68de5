import ScheduleExplorer
import Services
import Testing
import WorkbookTestSupport

@testable import Chapter06

extension InsufficientBuyingPower: CustomTestStringConvertible {
  public var testDescription: String {
    "refused: it needs \(dollars(needed)), and \(dollars(available)) is available"
  }
}

/// 60 shares at $1.00: more than half of the account's $100.00.
private let sixtyDollars = Order(symbol: "ACME", quantity: 60, limitPrice: 100)
/// 40 shares at $1.00.
private let fortyDollars = Order(symbol: "ACME", quantity: 40, limitPrice: 100)

/// Orders placed one after another whose answers are all lost, as a test's argument.
struct LostOrders: Sendable, CustomTestStringConvertible {
  let orders: [Order]

  init(_ orders: [Order]) {
    self.orders = orders
  }

  var testDescription: String {
    orders.map { "\($0.quantity) \($0.symbol) (\(dollars($0.cost)))" }.joined(separator: ", ")
  }
}

/// A scenario, its exchange, and an account holding `cents` ($100.00 unless told) that trades on it.
private func anAccount(holding cents: Int = 10_000) -> (Scenario, FakeExchange, BuyingPower) {
  let scenario = Scenario()
  let exchange = FakeExchange(scenario)
  return (scenario, exchange, BuyingPower(available: cents, exchange: exchange))
}

/// What `account` says is available, read by a caller of its own, as the timeline shows it.
private func available(of account: BuyingPower, in scenario: Scenario) async throws -> Money {
  try await scenario.call("available") { Money(cents: await account.available) }
}

@Suite("Chapter 06: the balance holds at every await", .testScheduler, .exposesBug)
struct ReservationTests {
  @Test("Two orders that together cost more than the account holds cannot both go through")
  func ordersBeyondTheBalanceAreRefused() async throws {
    let (scenario, exchange, account) = anAccount()

    let orders = scenario.start(2, "place(60 ACME, $60.00)") {
      try await account.place(sixtyDollars)
    }
    try await scenario.settle()
    exchange.open()
    let results = try await orders.results()
    let available = try await available(of: account, in: scenario)

    let gap =
      exchange.ordersReceived > 1
      ? """
      B's order was let through while A's was still at the exchange, as if A's $60.00 were \
      still there to spend.
      """
      : "More was taken from the account than it held."
    #expect(
      exchange.ordersReceived == 1 && available >= Money(cents: 0),
      scenario.explain(
        """
        The account held $100.00 and two orders of $60.00 were placed at once: \
        \(exchange.ordersReceived) reached the exchange, and the account is left with \
        \(dollars(available.cents)). \(gap) Callers got: \(describe(results)).
        """,
        correctly:
          "one order goes through and the other is refused: the account never goes below $0.00."
      )
    )
  }

  @Test("A rejected order gives back only its own money")
  func rejectedOrderGivesBackOnlyItsOwnMoney() async throws {
    let (scenario, exchange, account) = anAccount()

    let first = scenario.start(1, "place(60 ACME, $60.00)") {
      try await account.place(sixtyDollars)
    }
    try await scenario.settle()
    let second = scenario.start(1, "place(40 ACME, $40.00)") {
      try await account.place(fortyDollars)
    }
    try await scenario.settle()
    exchange.requests.release(1, as: "reject")
    _ = try await first.results()
    let available = try await available(of: account, in: scenario)
    let bothSent = exchange.ordersReceived == 2
    exchange.open()
    let secondResult = try await second.results()[0]

    #expect(
      available == Money(cents: 6_000),
      scenario.explain(
        bothSent
          ? """
          The account held $100.00. A's order of $60.00 and B's order of $40.00 were both at the \
          exchange when A's was rejected. With B's order still open, $60.00 should be available, \
          but available was \(dollars(available.cents)).
          """
          : """
          The account held $100.00. A placed an order of $60.00 and B one of $40.00, which fit in \
          what was left, but only A's reached the exchange (\(secondResult)). When A's order \
          was rejected, available was \(dollars(available.cents)).
          """,
        correctly: "with only B's $40.00 order still open, $60.00 is available."
      )
    )
  }

  @Test("An order whose answer was lost still counts against the balance")
  func orderOfUnknownFateKeepsItsMoney() async throws {
    let (scenario, exchange, account) = anAccount()

    let order = scenario.start(1, "place(60 ACME, $60.00)") {
      try await account.place(sixtyDollars)
    }
    try await scenario.settle()
    exchange.requests.release(1, as: "unknown")
    let result = try await order.results()[0]
    let available = try await available(of: account, in: scenario)

    #expect(
      available == Money(cents: 4_000),
      scenario.explain(
        """
        The exchange's answer to A's order was lost on the way (\(result)), so the order may \
        still be filled. Yet available was \(dollars(available.cents)), as if the $60.00 were free to \
        spend again.
        """,
        correctly: "while nobody knows whether the $60.00 order went through, $40.00 is available."
      )
    )
  }

  @Test("Two equal orders whose answers were both lost both count against the balance")
  func twoEqualOrdersOfUnknownFateBothKeepTheirMoney() async throws {
    let (scenario, exchange, account) = anAccount()

    let orders = scenario.start(2, "place(40 ACME, $40.00)") {
      try await account.place(fortyDollars)
    }
    try await scenario.settle()
    exchange.requests.release(1, as: "unknown")
    exchange.requests.release(2, as: "unknown")
    let results = try await orders.results()
    let available = try await available(of: account, in: scenario)

    #expect(
      available == Money(cents: 2_000),
      scenario.explain(
        """
        A and B each placed the same order of $40.00, and the exchange's answers to both were lost \
        (\(describe(results))), so either may still be filled. Yet available was \
        \(dollars(available.cents)), as if one of them had never been placed.
        """,
        correctly: "while neither $40.00 order is known to have failed, $20.00 is available."
      )
    )
  }

  @Test(
    "Orders whose answers were lost keep their money when another order is then rejected",
    arguments: [LostOrders([sixtyDollars]), LostOrders([fortyDollars, fortyDollars])])
  func lostOrdersKeepTheirMoneyThroughAnotherRejection(_ lost: LostOrders) async throws {
    let lost = lost.orders
    let (scenario, exchange, account) = anAccount()
    let held = lost.reduce(0) { $0 + $1.cost }
    // The rejected order takes the rest of the account, so that it fits only if the lost orders
    // still hold theirs.
    let rest = Order(symbol: "ACME", quantity: (10_000 - held) / 100, limitPrice: 100)

    var results: [CallerResult<OrderConfirmation>] = []
    for (number, order) in zip(1..., lost) {
      let caller = scenario.start(1, "place(\(order.quantity) ACME, \(dollars(order.cost)))") {
        try await account.place(order)
      }
      try await scenario.settle()
      exchange.requests.release(number, as: "unknown")
      results += try await caller.results()
    }
    let rejected = scenario.start(1, "place(\(rest.quantity) ACME, \(dollars(rest.cost)))") {
      try await account.place(rest)
    }
    try await scenario.settle()
    exchange.requests.release(lost.count + 1, as: "reject")
    results += try await rejected.results()
    let available = try await available(of: account, in: scenario)

    let whose =
      lost.count == 1
      ? "the answer to an order of \(dollars(held)) was lost, so it may still be filled"
      : "the answers to \(lost.count) equal orders of \(dollars(lost[0].cost)) were lost, so "
        + "each may still be filled"
    #expect(
      available == Money(cents: 10_000 - held),
      scenario.explain(
        """
        The account held $100.00; \(whose). Then the exchange rejected an order of \
        \(dollars(rest.cost)). Available was \(dollars(available.cents)) afterwards: the \
        rejection should give back its own \(dollars(rest.cost)) and nothing of the orders of \
        unknown fate. Callers got: \(describe(results)).
        """,
        correctly:
          "\(dollars(10_000 - held)) is available: the lost orders' \(dollars(held)) stays held."
      )
    )
  }

  @Test(
    "An order whose caller is cancelled still counts against the balance",
    arguments: [false, true])
  func cancelledOrderKeepsItsMoney(endingLikeURLSession: Bool) async throws {
    let (scenario, exchange, account) = anAccount()
    if endingLikeURLSession { exchange.windsDownCancelledOrdersLikeURLSession() }

    let order = scenario.start(1, "place(60 ACME, $60.00)") {
      try await account.place(sixtyDollars)
    }
    try await scenario.settle()
    order.cancel()
    try await scenario.settle()
    if endingLikeURLSession {
      // The client's transfer winds down, and its wait ends with URLError(.cancelled).
      exchange.requests.release(1, as: FakeExchange.cancelledLikeURLSession)
      try await scenario.settle()
    }
    // What the account shows while the order's fate is open. Then the exchange answers whatever
    // still waits, so that an account whose caller waits on for the answer ends too.
    let available = try await available(of: account, in: scenario)
    exchange.open()
    let result = try await order.results()[0]

    #expect(
      available == Money(cents: 4_000),
      scenario.explain(
        """
        A's order was at the exchange when A's task was cancelled (\(result)). Cancelling the \
        caller does not take the order back from the exchange, which may still fill it; yet \
        available was \(dollars(available.cents)).
        """,
        correctly: "while the $60.00 order may still be filled, $40.00 is available."
      )
    )
  }

  @Test(
    "A caller cancelled before it places its order keeps money only for an order the exchange saw"
  )
  func orderCancelledBeforeItIsSent() async throws {
    let (scenario, exchange, account) = anAccount()

    let order = scenario.start(1, "place(60 ACME, $60.00)") {
      try await account.place(sixtyDollars)
    }
    // A has not run yet: its task is cancelled before it places its order.
    order.hold()
    order.cancel()
    order.release()
    try await scenario.settle()
    try await expectMoneyHeldOnlyForAnOrderTheExchangeSaw(
      order, account, exchange, scenario, cancelled: "before its call of place(_:) began")
  }

  @Test(
    "A caller cancelled while away from the account keeps money only for an order the exchange saw"
  )
  func orderCancelledWhileAwayFromTheAccount() async throws {
    let (scenario, exchange, account) = anAccount()

    let order = scenario.start(1, "place(60 ACME, $60.00)") {
      try await account.place(sixtyDollars)
    }
    // A is stopped where it first leaves the account, for a step of its own or for the exchange,
    // and cancelled there, once B has placed an order of its own, which stays open.
    order.holdWhenTheyLeaveTheActor()
    try await scenario.settle()
    _ = scenario.start(1, "place(40 ACME, $40.00)") {
      try await account.place(fortyDollars)
    }
    try await scenario.settle()
    order.cancel()
    order.release()
    try await scenario.settle()
    try await expectMoneyHeldOnlyForAnOrderTheExchangeSaw(
      order, account, exchange, scenario,
      cancelled: "where its call of place(_:) first left the account", withAnotherOrderOpen: true)
  }

  /// Expects that A's order of $60.00, whose task was cancelled `cancelled`, holds its money once
  /// A's call has ended only if the order reached the exchange, which may still fill it; and that
  /// B's order of $40.00, still at the exchange `withAnotherOrderOpen`, holds its own.
  private func expectMoneyHeldOnlyForAnOrderTheExchangeSaw(
    _ order: Callers<OrderConfirmation>, _ account: BuyingPower, _ exchange: FakeExchange,
    _ scenario: Scenario, cancelled: String, withAnotherOrderOpen: Bool = false
  ) async throws {
    let available = try await available(of: account, in: scenario)
    let sent = exchange.requests.records.contains { $0.caller == "A" }
    exchange.open()
    let result = try await order.results()[0]
    let othersOpen = withAnotherOrderOpen ? 4_000 : 0
    let expected = Money(cents: (sent ? 4_000 : 10_000) - othersOpen)
    let fate =
      sent
      ? "its order had reached the exchange, which may still fill it"
      : "no order of A's reached the exchange: nothing can ever be spent on it"
    let others = withAnotherOrderOpen ? ", and B's order of $40.00 was still open" : ""
    let gap =
      available > expected
      ? "money held for an order that may still be filled was free to spend again"
      : "money stayed out of reach for an order that does not exist"

    #expect(
      available == expected,
      scenario.explain(
        """
        A placed an order of $60.00, and its task was cancelled \(cancelled). A's call ended \
        (\(result)); \(fate)\(others). Yet available was \(dollars(available.cents)), where it \
        should be \(dollars(expected.cents)): \(gap).
        """,
        correctly:
          "an order the exchange never saw costs nothing; one it saw holds its money unless rejected."
      )
    )
  }
}

@Suite("Chapter 06: what the account must keep doing", .testScheduler)
struct BuyingPowerGuardTests {
  @Test("An accepted order is charged once")
  func acceptedOrderIsCharged() async throws {
    let (scenario, exchange, account) = anAccount()
    exchange.open()

    _ = try await scenario.call("place(60 ACME, $60.00)") {
      try await account.place(sixtyDollars)
    }
    let available = try await available(of: account, in: scenario)

    #expect(
      available == Money(cents: 4_000),
      "after a $60.00 order the account should hold $40.00, not \(dollars(available.cents))")
  }

  @Test("A rejected order gives its money back")
  func rejectedOrderIsRefunded() async throws {
    let (scenario, exchange, account) = anAccount()
    exchange.open()

    exchange.rejectsOrders = true
    // Any error will do: an account may report a rejection in an error of its own.
    await #expect(throws: (any Error).self, "the rejection should reach the caller as an error") {
      try await scenario.call("place(60 ACME, $60.00)") { try await account.place(sixtyDollars) }
    }
    let available = try await available(of: account, in: scenario)

    #expect(
      available == Money(cents: 10_000),
      "the exchange rejected the order, so the account should still hold $100.00, not \(dollars(available.cents))"
    )
  }

  @Test("Two equal orders that are both rejected both give their money back")
  func twoEqualRejectedOrdersAreBothRefunded() async throws {
    let (scenario, exchange, account) = anAccount()

    let orders = scenario.start(2, "place(40 ACME, $40.00)") {
      try await account.place(fortyDollars)
    }
    try await scenario.settle()
    exchange.requests.release(1, as: "reject")
    exchange.requests.release(2, as: "reject")
    let results = try await orders.results()
    let available = try await available(of: account, in: scenario)

    #expect(
      available == Money(cents: 10_000),
      scenario.explain(
        """
        A and B each placed the same order of $40.00 at once, and the exchange rejected both \
        (\(describe(results))). Yet available was \(dollars(available.cents)) afterwards: each \
        rejection should give back its own $40.00.
        """,
        correctly: "both orders' money comes back, and $100.00 is available."
      )
    )
  }

  @Test("The same order rejected twice, one after the other, gives its money back each time")
  func sameOrderRejectedTwiceIsRefundedTwice() async throws {
    let (scenario, exchange, account) = anAccount()
    exchange.open()
    exchange.rejectsOrders = true

    for _ in 1...2 {
      _ = try? await scenario.call("place(60 ACME, $60.00)") {
        try await account.place(sixtyDollars)
      }
    }
    let available = try await available(of: account, in: scenario)

    #expect(
      available == Money(cents: 10_000),
      scenario.explain(
        """
        The same $60.00 order was placed and rejected, then placed again and rejected again. \
        Yet available was \(dollars(available.cents)) afterwards: the second rejection should \
        give back the second order's money, as the first did.
        """,
        correctly: "$100.00 is available after both rejections."
      )
    )
  }

  @Test("A caller who has heard of its rejection finds its money back")
  func rejectedCallerFindsItsMoneyBack() async throws {
    let (scenario, exchange, account) = anAccount()
    exchange.open()
    exchange.rejectsOrders = true

    // The caller reads the balance in its own task, the moment it has heard: as an app that
    // retries a rejected order at once would. A task the account starts meanwhile may not have
    // run by then, since the runtime starts it whenever it gets to it; unless the caller waits
    // for it.
    scenario.holdNewTasks()
    let caller = scenario.start(1, "place(60 ACME, $60.00), then available") {
      _ = try? await account.place(sixtyDollars)
      return Money(cents: await account.available)
    }
    try await scenario.settle()
    scenario.letHeldTasksRun()
    let seen = try await caller.results()[0].value ?? Money(cents: 0)

    #expect(
      seen == Money(cents: 10_000),
      scenario.explain(
        """
        The exchange rejected A's $60.00 order, and the moment A had heard of it, A read \
        available: \(dollars(seen.cents)). Once a caller knows its order was rejected, its money \
        is back.
        """,
        correctly: "A reads $100.00 right after its place() has thrown."
      )
    )
  }

  @Test("An order that costs what the account holds, to the cent, fits")
  func orderOfTheWholeBalanceToTheCentFits() async throws {
    let (scenario, exchange, account) = anAccount(holding: 9_999)
    exchange.open()
    let order = Order(symbol: "ACME", quantity: 3, limitPrice: 3_333)

    let result = try await scenario.start(1, "place(3 ACME, $99.99)") {
      try await account.place(order)
    }.results()[0]
    let available = try await available(of: account, in: scenario)

    #expect(
      result.value != nil && available == Money(cents: 0),
      scenario.explain(
        """
        The account held $99.99, and an order of 3 ACME at $33.33 costs $99.99: \(result), and \
        available was \(dollars(available.cents)) afterwards.
        """,
        correctly: "the order goes through, and $0.00 is left."
      )
    )
  }

  @Test("An order that costs a cent more than the account holds is refused")
  func orderOfACentTooMuchIsRefused() async throws {
    let (scenario, exchange, account) = anAccount(holding: 10_000)
    exchange.open()
    let order = Order(symbol: "ACME", quantity: 3, limitPrice: 3_334)

    let result = try await scenario.start(1, "place(3 ACME, $100.02)") {
      try await account.place(order)
    }.results()[0]
    let available = try await available(of: account, in: scenario)

    #expect(
      result.error is InsufficientBuyingPower && exchange.ordersReceived == 0
        && available == Money(cents: 10_000),
      scenario.explain(
        """
        The account held $100.00, and an order of 3 ACME at $33.34 costs $100.02: \(result),         \(exchange.ordersReceived) orders reached the exchange, and available was         \(dollars(available.cents)) afterwards.
        """,
        correctly: "the order is refused, nothing reaches the exchange, and $100.00 is left."
      )
    )
  }

  @Test("An order the exchange rejects gives its money back, though its caller was cancelled")
  func rejectedOrderOfACancelledCallerIsRefunded() async throws {
    let (scenario, exchange, account) = anAccount()
    exchange.answersCancelledOrders = true

    let order = scenario.start(1, "place(60 ACME, $60.00)") {
      try await account.place(sixtyDollars)
    }
    try await scenario.settle()
    order.cancel()
    try await scenario.settle()
    exchange.requests.release(1, as: "reject")
    let result = try await order.results()[0]
    let available = try await available(of: account, in: scenario)

    #expect(
      available == Money(cents: 10_000),
      scenario.explain(
        """
        A's task was cancelled while its order of $60.00 was at the exchange, and the exchange \
        answered the order all the same: it rejected it (\(result)), so nothing will ever be \
        spent on it. Yet available was \(dollars(available.cents)).
        """,
        correctly: "the rejected order costs nothing, and $100.00 is available."
      )
    )
  }

  @Test("An order the exchange accepts keeps its money, though its caller was cancelled")
  func acceptedOrderOfACancelledCallerKeepsItsMoney() async throws {
    let (scenario, exchange, account) = anAccount()
    exchange.answersCancelledOrders = true

    let order = scenario.start(1, "place(60 ACME, $60.00)") {
      try await account.place(sixtyDollars)
    }
    try await scenario.settle()
    order.cancel()
    try await scenario.settle()
    exchange.requests.release(1, as: "accept")
    let result = try await order.results()[0]
    let available = try await available(of: account, in: scenario)

    #expect(
      available == Money(cents: 4_000),
      scenario.explain(
        """
        A's task was cancelled while its order of $60.00 was at the exchange, and the exchange \
        answered the order all the same: it accepted it (\(result)), so the $60.00 is spent. Yet \
        available was \(dollars(available.cents)), as if the $60.00 were free to spend again.
        """,
        correctly: "the accepted order costs $60.00, and $40.00 is available."
      )
    )
  }

  @Test("Orders the account can afford go to the exchange at the same time")
  func affordableOrdersAreNotSerialised() async throws {
    let (scenario, exchange, account) = anAccount()

    let first = scenario.start(1, "place(60 ACME, $60.00)") {
      try await account.place(sixtyDollars)
    }
    let second = scenario.start(1, "place(40 ACME, $40.00)") {
      try await account.place(fortyDollars)
    }
    let bothAtTheExchange = await scenario.wait { exchange.requestsInFlight == 2 }
    exchange.open()
    let results = try await first.results() + second.results()
    let available = try await available(of: account, in: scenario)

    #expect(
      bothAtTheExchange,
      scenario.explain(
        "two orders that fit in the balance together should not wait for each other",
        correctly: "both orders are at the exchange at once."
      )
    )
    #expect(results.allSatisfy { $0.value != nil }, "both orders fit: \(describe(results))")
    #expect(
      available == Money(cents: 0),
      "the account should be left with $0.00, not \(dollars(available.cents))")
  }
}

@Suite("Chapter 06: every interleaving", .testScheduler, .exposesBug)
struct BuyingPowerExplorationTests {
  @Test("Three orders, in every order, one answer at most rejected or lost, never overspend")
  func everyInterleavingKeepsThePromise() async {
    await Exploration(
      BuyingPowerWorld.self,
      // Two equal orders that fit together, and a third that fits only if one of them goes.
      calls: [.place(fortyDollars), .place(fortyDollars), .place(sixtyDollars)],
      // An order's answer reaches the account only when its caller resumes, so holding a caller
      // in that gap is, to the account, the same as a slower answer; the exploration skips it.
      bounds: ExplorationBounds(holds: 0)
    ).run()
  }
}

/// An account of $100.00 in a world of its own, with the promise it keeps in every schedule.
struct BuyingPowerWorld: ChapterWorld {
  struct Call: ExploredCall {
    let order: Order

    static func place(_ order: Order) -> Self { Self(order: order) }

    var description: String { "place(\(order.quantity) \(order.symbol), \(dollars(order.cost)))" }
  }

  static let startingBalance = 10_000

  let exchange: FakeExchange
  let account: BuyingPower

  init(_ scenario: Scenario) {
    exchange = FakeExchange(scenario)
    account = BuyingPower(available: Self.startingBalance, exchange: exchange)
  }

  var fakes: [any FakeService] { [exchange] }

  func perform(_ call: Call) async throws -> any Sendable {
    try await account.place(call.order)
  }

  /// `available` is always the starting balance minus every order that the exchange accepted, is
  /// still deciding, or may still fill (its answer was lost), and never below zero; an order that
  /// fits is never refused, where what is left may also leave out orders placed earlier and not
  /// yet sent; and orders that fit go to the exchange at the same time.
  func checkPromise(_ moment: Moment<Self>) async {
    let records = exchange.requests.records
    func order(of caller: CallerRecord) -> Requests.Record? {
      records.first { $0.caller == caller.name }
    }
    /// Whether the money of `caller`'s order was given back by `time`: its order was rejected,
    /// and the caller has heard so.
    func refunded(_ caller: CallerRecord, by time: Int) -> Bool {
      order(of: caller)?.outcome == "reject" && (caller.finishedAt ?? .max) <= time
    }
    /// The callers whose orders, sent before `time`, had reserved or spent money at `time`.
    func holding(at time: Int) -> [CallerRecord] {
      moment.callers.filter { caller in
        guard let submitted = order(of: caller) else { return false }
        return submitted.startedAt < time && !refunded(caller, by: time)
      }
    }
    /// What orders sent before `time` had reserved or spent at `time`.
    func spent(at time: Int) -> Int {
      holding(at: time).reduce(0) { $0 + moment.call(of: $1).order.cost }
    }
    /// Whether `caller`'s order may have held money at `time`: it was sent before then and not
    /// given back, or it was placed before then and was still on its way to the exchange, where
    /// an account may already have reserved its money, as before a check of its own.
    func mayHold(_ caller: CallerRecord, at time: Int) -> Bool {
      guard caller.startedAt < time, !(caller.error is InsufficientBuyingPower) else {
        return false
      }
      if let submitted = order(of: caller), submitted.startedAt < time {
        return !refunded(caller, by: time)
      }
      return (caller.finishedAt ?? .max) > time
    }

    let available = await account.available
    moment.expect(
      available >= 0, "the balance never goes below zero",
      "The account holds \(dollars(available)): more was spent than it ever had.")
    if !moment.someoneIsHeld {
      let expected = Self.startingBalance - spent(at: .max)
      let held = holding(at: .max).map { "\($0.name)'s \(dollars(moment.call(of: $0).order.cost))" }
      let orders = held.isEmpty ? "none" : held.joined(separator: ", ")
      moment.expect(
        available == expected, "available is what is left",
        """
        available is \(dollars(available)), but the account started with \
        \(dollars(Self.startingBalance)) and orders worth \(dollars(Self.startingBalance - expected)) \
        (\(orders)) are accepted, still at the exchange, or of unknown fate: \
        \(dollars(expected)) should be left.
        """)
    }
    for caller in moment.callers where caller.error is InsufficientBuyingPower {
      let free =
        Self.startingBalance
        - moment.callers.filter { mayHold($0, at: caller.startedAt) }.reduce(0) {
          $0 + moment.call(of: $1).order.cost
        }
      let cost = moment.call(of: caller).order.cost
      moment.expect(
        free < cost, "an order that fits is placed",
        """
        Caller \(caller.name)'s order of \(dollars(cost)) was refused, though \(dollars(free)) \
        was free when it was placed.
        """)
    }
    guard !moment.someoneIsHeld else { return }
    for caller in moment.callers where !caller.hasFinished {
      moment.expect(
        order(of: caller)?.isInFlight == true, "orders do not wait for each other",
        """
        Caller \(caller.name)'s order of \(dollars(moment.call(of: caller).order.cost)) is \
        waiting, but it has not reached the exchange: an order that fits should not wait for \
        another order's answer.
        """)
    }
  }
}
