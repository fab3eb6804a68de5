import Foundation

/// What the workbook remembers for a student between commands, in `.workbook/progress.json`.
struct Progress: Codable {
  struct Check: Codable {
    /// A fingerprint of the chapter's sources when they were checked.
    let sources: String
    let verdict: ChapterReport.Verdict
    let passed: Int
    let total: Int
  }

  var checks: [String: Check] = [:]
  /// How many hints of each chapter the student has seen.
  var hintsSeen: [String: Int] = [:]

  static func load(_ course: Course) -> Progress {
    guard let data = try? Data(contentsOf: file(course)),
      let progress = try? JSONDecoder().decode(Progress.self, from: data)
    else { return Progress() }
    return progress
  }

  func save(_ course: Course) {
    let url = Self.file(course)
    try? FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try? encoder.encode(self).write(to: url, options: .atomic)
  }

  private static func file(_ course: Course) -> URL {
    course.url(".workbook/progress.json")
  }
}

/// A fingerprint of a chapter's sources (FNV-1a), to tell whether they changed since a check.
func fingerprint(of chapter: Chapter, in course: Course) -> String {
  var hash: UInt64 = 0xcbf2_9ce4_8422_2325
  for name in (try? course.sources(of: chapter)) ?? [] {
    let data = (try? Data(contentsOf: course.url("Chapters/\(chapter.folder)/\(name)"))) ?? Data()
    for byte in Data(name.utf8) + data {
      hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
    }
  }
  return String(hash, radix: 16)
}
