import Services
import Testing
import WorkbookTestSupport

@testable import Chapter06

/// 60 shares at $1.00: more than half of the account's $100.00.
private let sixtyDollars = Order(symbol: "ACME", quantity: 60, limitPrice: 100)
/// 40 shares at $1.00.
private let fortyDollars = Order(symbol: "ACME", quantity: 40, limitPrice: 100)

@Suite("Chapter 06: the balance holds at every await", .exposesBug)
struct ReservationTests {
  @Test("Two orders that together cost more than the account holds cannot both go through")
  func ordersBeyondTheBalanceAreRefused() async throws {
    let scenario = Scenario()
    let exchange = FakeExchange(scenario)
    let account = BuyingPower(available: 10_000, exchange: exchange)

    let orders = scenario.start(2, "place(60 ACME, $60.00)") {
      try await account.place(sixtyDollars)
    }
    try await scenario.settle()
    exchange.open()
    let results = try await orders.results()
    let available = try await scenario.call("available") { await account.available }

    #expect(
      exchange.ordersReceived == 1 && available >= 0,
      scenario.explain(
        """
        The account held $100.00 and two orders of $60.00 were placed at once: \
        \(exchange.ordersReceived) reached the exchange, and the account is left with \
        \(dollars(available)). Both orders passed the `order.cost <= available` check, because \
        neither was charged until the exchange answered, after the `await`. An invariant such as \
        "never spend more than you have" must hold at every `await`, not only at the end of the \
        method. Callers got: \(describe(results)).
        """,
        correctly: "A reserves $60.00 before sending its order, so B finds $40.00 and is refused."
      )
    )
  }
}

@Suite("Chapter 06: what the account must keep doing")
struct BuyingPowerGuardTests {
  @Test("An accepted order is charged once")
  func acceptedOrderIsCharged() async throws {
    let scenario = Scenario()
    let exchange = FakeExchange(scenario)
    let account = BuyingPower(available: 10_000, exchange: exchange)
    exchange.open()

    _ = try await scenario.call("place(60 ACME, $60.00)") {
      try await account.place(sixtyDollars)
    }
    let available = try await scenario.call("available") { await account.available }

    #expect(
      available == 4_000,
      "after a $60.00 order the account should hold $40.00, not \(dollars(available))")
  }

  @Test("A rejected order gives its money back")
  func rejectedOrderIsRefunded() async throws {
    let scenario = Scenario()
    let exchange = FakeExchange(scenario)
    let account = BuyingPower(available: 10_000, exchange: exchange)
    exchange.open()

    exchange.rejectsOrders = true
    await #expect(throws: OrderRejected.self) {
      try await scenario.call("place(60 ACME, $60.00)") { try await account.place(sixtyDollars) }
    }
    let available = try await scenario.call("available") { await account.available }

    #expect(
      available == 10_000,
      "the exchange rejected the order, so the account should still hold $100.00, not \(dollars(available))"
    )
  }

  @Test("Orders the account can afford go to the exchange at the same time")
  func affordableOrdersAreNotSerialised() async throws {
    let scenario = Scenario()
    let exchange = FakeExchange(scenario)
    let account = BuyingPower(available: 10_000, exchange: exchange)

    let first = scenario.start(1, "place(60 ACME, $60.00)") {
      try await account.place(sixtyDollars)
    }
    let second = scenario.start(1, "place(40 ACME, $40.00)") {
      try await account.place(fortyDollars)
    }
    let bothAtTheExchange = await scenario.wait { exchange.requestsInFlight == 2 }
    exchange.open()
    let results = try await first.results() + second.results()
    let available = try await scenario.call("available") { await account.available }

    #expect(
      bothAtTheExchange,
      scenario.explain(
        "two orders that fit in the balance together should not wait for each other",
        correctly: "both orders are at the exchange at once."
      )
    )
    #expect(results.allSatisfy { $0.value != nil }, "both orders fit: \(describe(results))")
    #expect(available == 0, "the account should be left with $0.00, not \(dollars(available))")
  }
}
