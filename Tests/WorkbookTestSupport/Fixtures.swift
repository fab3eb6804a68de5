import Foundation

extension URL {
  /// Pictures the image-cache chapters ask for. Nothing is fetched from these addresses: the
  /// tests hand the caches a ``FakeImageClient``.
  public static let cat = URL(string: "https://images.example.com/cat.png")!
  public static let dog = URL(string: "https://images.example.com/dog.png")!
}

extension CallerResult: CustomStringConvertible {
  /// `A got image #1`, or `B threw: request #2 failed: …`.
  public var description: String {
    switch result {
    case .success(let value): "\(caller) got \(describe(value))"
    case .failure(let error): "\(caller) threw: \(describe(error))"
    }
  }
}

/// What a group of callers got, in one line: `A got image #1, B got image #2`.
public func describe<Value>(_ results: [CallerResult<Value>]) -> String {
  results.map(\.description).joined(separator: ", ")
}
