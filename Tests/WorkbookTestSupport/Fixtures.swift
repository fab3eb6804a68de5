import Foundation
import ScheduleExplorer

extension URL {
  /// Pictures the image-cache chapters ask for. Nothing is fetched from these addresses: the
  /// tests hand the caches a ``FakeImageClient``.
  public static let cat = URL(string: "https://images.example.com/cat.png")!
  public static let dog = URL(string: "https://images.example.com/dog.png")!
  /// Another picture whose address ends in the same file name as ``cat``, on another host.
  public static let catThumbnail = URL(string: "https://thumbnails.example.com/cat.png")!
  /// Another picture whose address differs from ``cat``'s only in its query.
  public static let catSmall = URL(string: "https://images.example.com/cat.png?size=small")!
  /// Another picture whose address differs from ``cat``'s only in its port: another server.
  public static let catOnAnotherPort = URL(string: "https://images.example.com:8443/cat.png")!
  /// Another picture whose address differs from ``cat``'s only in its scheme: what a server
  /// sends over plain HTTP need not be what it sends over HTTPS, nor come from the same server.
  public static let catOverHTTP = URL(string: "http://images.example.com/cat.png")!
  /// Another picture whose address differs from ``cat``'s only in the case of a letter of its
  /// path. Only the scheme and the host of an address ignore case (RFC 3986, section 6.2.2.1); a
  /// server may hold `Cat.png` and `cat.png` as two files.
  public static let catCapitalized = URL(string: "https://images.example.com/Cat.png")!

  /// How the tests name the picture at this address: its path and query, such as `cat.png` or
  /// `cat.png?size=800`, when it is on the course's image server over HTTPS, and its host and port
  /// too otherwise, such as `thumbnails.example.com/cat.png`, with its scheme unless it is HTTPS,
  /// such as `http://images.example.com/cat.png`, so that two addresses are never one name.
  public var pictureName: String {
    let rest = path + (query.map { "?" + $0 } ?? "")
    let server = (host ?? "") + (port.map { ":\($0)" } ?? "")
    guard scheme == "https" else { return "\(scheme ?? "")://" + server + rest }
    return server == "images.example.com" ? String(rest.dropFirst()) : server + rest
  }
}
