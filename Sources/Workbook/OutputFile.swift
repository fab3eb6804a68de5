import Foundation

/// A file that an option asks the workbook to write, such as `--junit results.xml`.
///
/// The workbook never deletes or overwrites what it did not create. So the path is checked when
/// the command starts, before anything is built: a folder, a path in a folder that does not exist
/// or cannot be written, and a file that is not a report of the same kind are refused, each with
/// one sentence and the exit status of wrong usage, since nothing has run yet. The report is then
/// written to a new file beside the old one and renamed over it, so that a reader finds the old
/// report or the new one, never half of either, and a folder can never be replaced: renaming a
/// file over a folder fails.
struct OutputFile {
  /// What kind of report the file holds, which says which existing file may be replaced.
  enum Kind {
    case junit

    /// Whether `head`, the first bytes of an existing file, are a report of this kind: one the
    /// workbook (or another test tool) wrote before, and the one thing it may replace.
    func recognises(_ head: String) -> Bool {
      switch self {
      case .junit: head.hasPrefix("<?xml") && head.contains("<testsuite")
      }
    }

    var name: String {
      switch self {
      case .junit: "a JUnit report"
      }
    }
  }

  /// The absolute path of the file.
  let url: URL
  /// The option that named it, such as `--junit`, for messages.
  let option: String

  /// Checks `path`, as typed, relative to the current directory.
  init(_ path: String, option: String, kind: Kind) throws(WorkbookError) {
    self.option = option
    guard !path.isEmpty else {
      throw WorkbookError.usage(
        "`\(option)` needs the path of a file, such as `\(option) results.xml`.")
    }
    url =
      URL(
        fileURLWithPath: path,
        relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
      ).standardizedFileURL
    let shown = "`\(option) \(path)`"
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) {
      guard !isFolder.boolValue else {
        throw WorkbookError.usage(
          "\(shown) names a folder, and the workbook writes a file: nothing was written.",
          hint: "give the path of a file, such as `\(option) \(path)/results.xml`.")
      }
      let head = FileHandle(forReadingAtPath: url.path).map { handle in
        defer { try? handle.close() }
        return String(decoding: (try? handle.read(upToCount: 4096)) ?? Data(), as: UTF8.self)
      }
      guard let head, kind.recognises(head) else {
        throw WorkbookError.usage(
          "\(shown) names a file that is not \(kind.name), and the workbook replaces only "
            + "reports: nothing was written.",
          hint: "give a new path, or move that file away first.")
      }
    }
    let folder = url.deletingLastPathComponent()
    guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder),
      isFolder.boolValue
    else {
      let what =
        FileManager.default.fileExists(atPath: folder.path) ? "is not a folder" : "does not exist"
      throw WorkbookError.usage(
        "\(shown) is in \(folder.path), which \(what): nothing was written.")
    }
    // The one sure test of "can be written" is writing: access(2) says yes to root everywhere,
    // and knows nothing of read-only file systems.
    do {
      let probe = try Self.create(beside: url)
      unlink(probe.path)
    } catch {
      throw WorkbookError.usage(
        "\(shown) cannot be written: \(error.message) Nothing was built.",
        hint: "give a path in a folder you can write, such as `\(option) results.xml`.")
    }
  }

  /// Writes `data` to a new file in the same folder, then renames it over the file.
  func write(_ data: Data) throws(WorkbookError) {
    let temporary = try Self.create(beside: url)
    do {
      try data.write(to: temporary)
    } catch {
      unlink(temporary.path)
      throw WorkbookError("could not write \(url.path): \(error.localizedDescription)")
    }
    guard rename(temporary.path, url.path) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporary.path)
      throw WorkbookError("could not write \(url.path): \(reason).")
    }
  }

  /// Creates an empty file with a name no other file has, in the folder of `url`: a hidden name
  /// that says whose it is, made unique by the process and a random part.
  private static func create(beside url: URL) throws(WorkbookError) -> URL {
    let name = ".\(url.lastPathComponent).workbook-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let temporary = url.deletingLastPathComponent().appendingPathComponent(name)
    let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
    guard descriptor >= 0 else {
      throw WorkbookError("\(String(cString: strerror(errno))).")
    }
    close(descriptor)
    return temporary
  }
}
