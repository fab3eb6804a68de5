import Foundation

/// Every chapter's starter, as git keeps it.
///
/// `Chapters/starters.txt` names the git object of each starter file. Git keeps that object
/// whatever the student does to the file, commits included, so `reset` can always bring the starter
/// back and the status table can tell an untouched chapter from one in progress.
struct Starters {
  static let manifest = "Chapters/starters.txt"

  private let course: Course
  /// The git object of each starter file, by path under `Chapters/`.
  private let objects: [String: String]

  init(_ course: Course) throws(WorkbookError) {
    self.course = course
    guard let text = try? String(contentsOf: course.url(Self.manifest), encoding: .utf8) else {
      throw WorkbookError(
        "\(Self.manifest) is missing, so the starters cannot be found.",
        hint: "restore it with `git checkout -- \(Self.manifest)`.")
    }
    var objects: [String: String] = [:]
    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
      let fields = line.split(separator: " ", omittingEmptySubsequences: true)
      if fields.count == 2 { objects[String(fields[1])] = String(fields[0]) }
    }
    self.objects = objects
  }

  /// The git objects that the starter files in `Chapters/` have now, in the manifest's format.
  static func record(_ course: Course) throws(WorkbookError) -> String {
    let paths = course.chapters.flatMap { chapter in
      ((try? course.sources(of: chapter)) ?? []).map { "\(chapter.folder)/\($0)" }
    }
    let hashed = try Shell.run(
      ["git", "hash-object"] + paths.map { "Chapters/\($0)" }, in: course.root)
    guard hashed.succeeded else {
      throw WorkbookError("git could not read the chapters: \(hashed.output)")
    }
    let hashes = hashed.output.split(separator: "\n")
    return zip(hashes, paths).map { "\($0) \($1)" }.joined(separator: "\n") + "\n"
  }

  /// The starter text of `file` in `chapter`.
  func text(of file: String, in chapter: Chapter) throws(WorkbookError) -> Data {
    guard let object = objects["\(chapter.folder)/\(file)"] else {
      throw WorkbookError("\(Self.manifest) does not list \(chapter.folder)/\(file).")
    }
    let result = try Shell.run(["git", "cat-file", "blob", object], in: course.root)
    guard result.succeeded else {
      throw WorkbookError(
        "git does not have the starter of \(chapter.folder)/\(file).",
        hint: "the starters come from git: work in a clone of the workbook, not a downloaded copy.")
    }
    return Data(result.output.utf8)
  }

  /// The starter files of `chapter`, by name.
  func files(of chapter: Chapter) -> [String] {
    objects.keys.filter { $0.hasPrefix("\(chapter.folder)/") }
      .map { String($0.dropFirst(chapter.folder.count + 1)) }.sorted()
  }

  /// The chapters whose files are still exactly their starters, found with one call to git.
  func untouched() -> Set<String> {
    let current = (try? Self.record(course)) ?? ""
    var changed = Set<String>()
    var seen = Set<String>()
    for line in current.split(separator: "\n") {
      let fields = line.split(separator: " ")
      guard fields.count == 2 else { continue }
      let path = String(fields[1])
      let folder = String(path.prefix { $0 != "/" })
      seen.insert(folder)
      if objects[path] != String(fields[0]) { changed.insert(folder) }
    }
    return seen.subtracting(changed)
  }
}
