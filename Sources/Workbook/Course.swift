import Foundation

/// One chapter of the workbook, as found on disk.
struct Chapter {
  /// Two digits, such as `01`.
  let number: String
  /// The folder under `Chapters/` and `Solutions/`, such as `01-ImageCache`.
  let folder: String
  /// The lesson's title, such as "`ImageCache`: a check that goes stale at `await`".
  let title: String

  /// The module that builds the chapter's actor instead of its own target, when the judge of a
  /// student's test builds one version of it (see ``Judge``).
  var module: String?

  /// The SwiftPM target that builds the chapter, and its test target.
  var target: String { module ?? "Chapter\(number)" }
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
    var folders: Set<String>
    do {
      folders = Set(
        try FileManager.default.contentsOfDirectory(
          atPath: root.appendingPathComponent("Chapters").path))
    } catch {
      throw WorkbookError("cannot read Chapters/: \(error.localizedDescription)")
    }
    // The record of the starters names every chapter, so that a chapter whose folder was deleted
    // is still a chapter: the table says it is missing, and `reset` brings it back.
    let record =
      (try? String(contentsOf: root.appendingPathComponent(Starters.manifest), encoding: .utf8))
      ?? ""
    for line in record.split(separator: "\n") where !line.hasPrefix("#") {
      guard let path = line.split(separator: " ").last, let slash = path.firstIndex(of: "/")
      else { continue }
      folders.insert(String(path[..<slash]))
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

  /// The commit the checkout is at, short, if git knows it.
  var commit: String? {
    guard let result = try? Shell.run(["git", "rev-parse", "--short", "HEAD"], in: root),
      result.succeeded
    else { return nil }
    return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Why `chapter`'s folder under `top` cannot be built at all, in one sentence: it is missing,
  /// or holds no Swift file. `nil` when it holds code to build.
  func missing(_ chapter: Chapter, in top: String = "Chapters") -> String? {
    let folder = "\(top)/\(chapter.folder)"
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: url(folder).path, isDirectory: &isFolder),
      isFolder.boolValue
    else { return "\(folder)/ is missing." }
    guard let sources = try? sources(of: chapter, in: top), !sources.isEmpty else {
      return "\(folder)/ holds no Swift file."
    }
    return nil
  }

  /// The sentence that says how to bring a chapter's starter back.
  func restore(_ chapter: Chapter) -> String {
    "`swift run workbook reset \(chapter.number)` brings its starter back, keeping a backup of "
      + "anything it replaces."
  }

  /// The chapter a student named: `1`, `01` or `01-ImageCache`.
  func chapter(_ name: String) throws(WorkbookError) -> Chapter {
    // `1`, `01` and `001` are all chapter 01.
    let wanted = Int(name).map { String(format: "%02d", $0) } ?? name
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
        hint: top == "Chapters" ? restore(chapter) : nil,
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
