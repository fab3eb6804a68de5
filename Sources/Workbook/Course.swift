import Foundation

/// One chapter of the workbook, as found on disk.
struct Chapter {
  /// Two digits, such as `01`.
  let number: String
  /// The folder under `Chapters/` and `Solutions/`, such as `01-ImageCache`.
  let folder: String
  /// The lesson's title, such as "`ImageCache`: a check that goes stale at `await`".
  let title: String

  /// The SwiftPM target that builds the chapter, and its test target.
  var target: String { "Chapter\(number)" }
  var testTarget: String { "\(target)Tests" }
}

/// The workbook checkout: where its chapters, solutions and lessons are.
struct Course {
  let root: URL
  let chapters: [Chapter]

  /// Finds the workbook that contains the current directory.
  static func locate() throws(WorkbookError) -> Course {
    var directory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    while true {
      let manifest = directory.appendingPathComponent("Package.swift").path
      let chapters = directory.appendingPathComponent("Chapters").path
      if FileManager.default.fileExists(atPath: manifest),
        FileManager.default.fileExists(atPath: chapters)
      {
        return try Course(root: directory)
      }
      let parent = directory.deletingLastPathComponent()
      guard parent.path != directory.path else {
        throw WorkbookError(
          "this is not inside the workbook: no folder above it holds Package.swift and Chapters/.",
          hint: "cd into your clone of the workbook and run the command again.")
      }
      directory = parent
    }
  }

  init(root: URL) throws(WorkbookError) {
    self.root = root
    let folders: [String]
    do {
      folders = try FileManager.default.contentsOfDirectory(
        atPath: root.appendingPathComponent("Chapters").path)
    } catch {
      throw WorkbookError("cannot read Chapters/: \(error.localizedDescription)")
    }
    chapters = folders.sorted().compactMap { folder in
      guard folder.count > 3, folder.prefix(2).allSatisfy(\.isNumber),
        folder.dropFirst(2).first == "-"
      else { return nil }
      let lesson = root.appendingPathComponent("Docs/\(folder).md")
      return Chapter(
        number: String(folder.prefix(2)), folder: folder, title: Self.title(ofLesson: lesson))
    }
  }

  /// The chapter a student named: `1`, `01` or `01-ImageCache`.
  func chapter(_ name: String) throws(WorkbookError) -> Chapter {
    let wanted = name.count == 1 ? "0\(name)" : name
    if let chapter = chapters.first(where: { $0.number == wanted || $0.folder == name }) {
      return chapter
    }
    let known = chapters.map(\.number).joined(separator: ", ")
    throw WorkbookError.usage(
      "there is no chapter \(name).", hint: "the chapters are \(known); `workbook` lists them.")
  }

  func url(_ path: String) -> URL {
    root.appendingPathComponent(path)
  }

  /// The Swift files of a chapter's folder under `Chapters/` (the student's) or `Solutions/`.
  func sources(of chapter: Chapter, in top: String = "Chapters") throws(WorkbookError) -> [String] {
    let folder = url("\(top)/\(chapter.folder)")
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else {
      throw WorkbookError(
        "\(top)/\(chapter.folder) is missing.",
        hint: top == "Chapters" ? "`workbook reset \(chapter.number)` puts the starter back." : nil,
        exitCode: .doesNotCompile)
    }
    return names.filter { $0.hasSuffix(".swift") }.sorted()
  }

  private static func title(ofLesson lesson: URL) -> String {
    guard let text = try? String(contentsOf: lesson, encoding: .utf8),
      let heading = text.split(separator: "\n").first(where: { $0.hasPrefix("# ") })
    else { return "" }
    // "# Chapter 01 · `ImageCache`: …" becomes "`ImageCache`: …".
    let title = String(heading.dropFirst(2))
    guard let separator = title.range(of: " · ") else { return title }
    return String(title[separator.upperBound...])
  }
}
