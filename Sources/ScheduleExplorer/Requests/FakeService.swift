/// A fake of the world outside an actor, whose requests the test controls one by one.
///
/// Every fake keeps its requests in a ``Requests`` log; this protocol gives them all the same
/// controls, so that a test reads the same in every chapter: `open()` lets everything through,
/// `release(2)` lets request #2 finish, `wasCancelled(1)` tells whether request #1's task was
/// cancelled while it waited.
public protocol FakeService: Sendable {
  var requests: Requests { get }
}

extension FakeService {
  /// Lets every waiting request finish, and every later one finish at once.
  public func open() {
    requests.open()
  }

  /// Undoes ``open()``: requests that start from now on wait for the test again.
  public func close() {
    requests.close()
  }

  /// Lets request `number` finish (now, or as soon as it starts); the others keep waiting.
  public func release(_ number: Int) {
    requests.release(number)
  }

  /// Whether request `number`'s task was cancelled while the request waited.
  public func wasCancelled(_ number: Int) -> Bool {
    requests.cancelled.contains(number)
  }

  /// How many requests have started.
  public var requestsStarted: Int { requests.started }

  /// How many requests have started and not yet finished.
  public var requestsInFlight: Int { requests.inFlight }

  /// The most requests that were in flight at the same moment.
  public var mostRequestsAtOnce: Int { requests.mostInFlight }

  /// Whether a cancelled request keeps waiting until the test releases it, as a transfer does that
  /// takes a while to wind down. By default a cancelled request throws at once.
  public var cancelledRequestsWaitForRelease: Bool {
    get { requests.cancelledRequestsWaitForRelease }
    nonmutating set { requests.cancelledRequestsWaitForRelease = newValue }
  }
}
