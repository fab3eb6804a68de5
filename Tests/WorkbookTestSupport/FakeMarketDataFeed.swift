import ScheduleExplorer
import Services

/// A ``MarketDataFeed`` whose fetches wait until the test opens its gate, over an exchange whose
/// book changes when the test says so.
///
/// The exchange starts with snapshot #1, and ``publishNewBook()`` makes the next book current, as
/// the exchange does before it announces a change. A snapshot's number says which book it is, not
/// which fetch brought it: fetches in the same book's time bring the same snapshot.
///
/// What ``MarketDataFeed`` documents, and how this fake does it:
/// - "Fetches order-book snapshots from an exchange": the outcome `snapshot`; fetches finish
///   when the test lets them, in any order.
/// - "A fetch brings the book as the exchange has it at some moment while the fetch is out": the
///   outcome `snapshot` brings the book that was current when the fetch started; the outcome
///   `newer` publishes a new book while the fetch is out and brings that one.
/// - "Two fetches bring the same book when it did not change between them": the outcome
///   `snapshot`, for fetches that start with no ``publishNewBook()`` between them.
/// - "A fetch that started before another may bring a later book than that one": the outcome
///   `newer`, or a fetch that started earlier answering `snapshot` after a change.
/// - Besides: the outcome `error`, a ``FakeNetworkError``. A cancelled fetch throws
///   `CancellationError` at once, or winds down (the outcome `cancelled`), or returns its
///   snapshot anyway.
public final class FakeMarketDataFeed: MarketDataFeed, FakeService {
  public let requests: Requests
  /// The number of the exchange's current book, and of each book that ``publishNewBook()`` made
  /// current, oldest first.
  private let books = Locked((current: 1, published: [Int]()))

  public init(_ scenario: Scenario) {
    requests = Requests(
      noun: "fetch", preposition: "of", outcomes: ["snapshot", "error", "newer"],
      scenario: scenario)
  }

  /// Whether fetches fail when the test lets them finish without choosing.
  public var failsFetches: Bool {
    get { requests.defaultOutcome == "error" }
    set { requests.defaultOutcome = newValue ? "error" : "snapshot" }
  }

  /// How many fetches have started.
  public var fetches: Int { requests.started }

  /// The number of the book the exchange has now.
  public var currentBook: Int { books.value.current }

  /// The books that ``publishNewBook()`` made current, in the order it did; a book that a fetch
  /// answering `newer` brought is not among them, since nobody announced it.
  public var publishedBooks: [Int] { books.value.published }

  /// Makes a new book the exchange's current one, and returns its number. Call it where the
  /// exchange would announce the change, before the actor hears of it.
  @discardableResult
  public func publishNewBook() -> Int {
    books.withLock {
      $0.current += 1
      $0.published.append($0.current)
      return $0.current
    }
  }

  public func latestSnapshot() async throws -> OrderBookSnapshot {
    // The book the exchange has as the fetch starts; a fetch that answers `newer` was served a
    // book that the exchange published while it was out.
    let bookAtStart = currentBook
    return try await requests.perform(for: "the order book") { [books] number, outcome in
      if outcome == "error" { throw FakeNetworkError(request: number) }
      let book =
        outcome == "newer"
        ? books.withLock {
          $0.current += 1
          return $0.current
        } : bookAtStart
      let snapshot = Self.snapshot(number: book)
      return (snapshot, "returns \(snapshot.testDescription)")
    }
  }

  /// The exchange's book number `number`.
  public static func snapshot(number: Int) -> OrderBookSnapshot {
    let mid = 100.0 + Double(number) / 100
    return OrderBookSnapshot(
      sequence: number,
      bids: [PriceLevel(price: mid - 0.01, quantity: 5)],
      asks: [PriceLevel(price: mid + 0.01, quantity: 3)]
    )
  }
}
