import Foundation
import ScheduleExplorer

/// A chapter's world for the explorer, whose printed replay line builds the chapter alone, as the
/// lessons' plain `swift test` command does: another chapter that does not compile cannot stop it.
public protocol ChapterWorld: ExplorationWorld {}

extension ChapterWorld {
  /// The lessons' command for the chapters this run was built with (`WORKBOOK_CHAPTERS`), or
  /// `nil`, and so `swift test`, for a run of every chapter. `workbook check` sets
  /// `SCHEDULE_EXPLORER_TEST_COMMAND` to its own command, which comes first.
  public static var replayCommand: String? {
    ProcessInfo.processInfo.environment["WORKBOOK_CHAPTERS"].map {
      "WORKBOOK_CHAPTERS=\($0) swift test --scratch-path .build/chapters"
    }
  }
}
