/// One of a fake's logs of requests, on its own, for a fake that keeps more than one.
///
/// An exploration answers the requests of the fakes its world lists, through each fake's
/// ``FakeService/requests``. A fake with two kinds of request, such as a chat server's connects
/// and sends, names only one of its logs there; list each log instead, so that the explorer
/// answers both:
///
/// ```swift
/// var fakes: [any FakeService] { [RequestLog(server.connects), RequestLog(server.sends)] }
/// ```
public struct RequestLog: FakeService {
  public let requests: Requests

  public init(_ requests: Requests) {
    self.requests = requests
  }
}
