import Foundation

/// A decoded picture: what an image cache hands to the screen.
///
/// The workbook decodes the binary Portable Pixmap format (`P6`), which needs nothing beyond
/// Foundation and so builds on Linux and macOS alike. A real app would decode PNG or JPEG; the
/// lessons only need decoding to be a step that can fail.
public struct Image: Hashable, Sendable {
  public let width: Int
  public let height: Int
  /// Red, green and blue bytes, row by row.
  public let pixels: [UInt8]

  public init(width: Int, height: Int, pixels: [UInt8]) {
    precondition(width > 0 && height > 0, "an image has at least one pixel")
    precondition(pixels.count == width * height * 3, "an image has three bytes per pixel")
    self.width = width
    self.height = height
    self.pixels = pixels
  }

  /// Decodes downloaded bytes, throwing ``ImageDecodingError`` when they are not an image.
  public init(data: Data) throws(ImageDecodingError) {
    var reader = HeaderReader(bytes: Array(data))
    guard reader.nextToken() == "P6" else { throw .notAnImage(byteCount: data.count) }
    guard let width = reader.nextNumber(), let height = reader.nextNumber(),
      let maxValue = reader.nextNumber(), width > 0, height > 0, maxValue == 255
    else { throw .malformedHeader }
    let body = reader.remainder()
    guard body.count == width * height * 3 else {
      throw .wrongPixelCount(expected: width * height * 3, found: body.count)
    }
    self.init(width: width, height: height, pixels: body)
  }

  /// The bytes that ``init(data:)`` decodes back into this image.
  public var encoded: Data {
    Data("P6\n\(width) \(height)\n255\n".utf8) + Data(pixels)
  }
}

/// Why downloaded bytes could not be decoded into an ``Image``.
public enum ImageDecodingError: Error, Equatable, CustomStringConvertible {
  case notAnImage(byteCount: Int)
  case malformedHeader
  case wrongPixelCount(expected: Int, found: Int)

  public var description: String {
    switch self {
    case .notAnImage(let byteCount):
      "the \(byteCount) downloaded bytes are not an image"
    case .malformedHeader:
      "the image header is malformed"
    case .wrongPixelCount(let expected, let found):
      "the image should hold \(expected) pixel bytes but holds \(found)"
    }
  }
}

/// Reads the whitespace-separated ASCII header of a pixmap, then hands back the pixel bytes.
private struct HeaderReader {
  let bytes: [UInt8]
  var position = 0

  mutating func nextToken() -> String? {
    while position < bytes.count, isWhitespace(bytes[position]) { position += 1 }
    let start = position
    while position < bytes.count, !isWhitespace(bytes[position]) { position += 1 }
    guard position > start else { return nil }
    return String(decoding: bytes[start..<position], as: UTF8.self)
  }

  mutating func nextNumber() -> Int? {
    nextToken().flatMap { Int($0) }
  }

  /// The bytes after the single whitespace byte that ends the header.
  mutating func remainder() -> [UInt8] {
    guard position < bytes.count else { return [] }
    return Array(bytes[(position + 1)...])
  }

  private func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }
}
