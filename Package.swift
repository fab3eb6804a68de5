// swift-tools-version: 6.0
import Foundation
import PackageDescription

// A student's code lives in `Chapters/`. The workbook's self-check (`Scripts/verify`) builds the
// same targets from `Solutions/` by setting WORKBOOK_VERIFY=solutions, each variant in its own
// scratch path, so that the solutions are proved against exactly the suites students run.
let chapterFolder =
  ProcessInfo.processInfo.environment["WORKBOOK_VERIFY"] == "solutions" ? "Solutions" : "Chapters"

/// The chapters in course order: the SwiftPM target name and the folder that holds its actor.
let chapters: [(target: String, folder: String)] = [
  ("Chapter01", "01-ImageCache"),
  ("Chapter02", "02-ImageCacheInFlight"),
  ("Chapter03", "03-MarketDataCache"),
  ("Chapter04", "04-TokenStore"),
  ("Chapter05", "05-DownloadManager"),
  ("Chapter06", "06-BuyingPower"),
  ("Chapter07", "07-QuoteStore"),
  ("Chapter08", "08-AvatarLoader"),
  ("Chapter09", "09-Dashboard"),
  ("Chapter10", "10-MarketFeed"),
  ("Chapter12", "12-StatementLoader"),
  ("Chapter13", "13-LiveQuote"),
]

let package = Package(
  name: "ActorReentrancyWorkbook",
  platforms: [.macOS(.v15)],
  products: [
    // `swift run workbook`: the course's table of contents, checks, hints, diffs and resets.
    .executable(name: "workbook", targets: ["Workbook"])
  ],
  targets: [
    .executableTarget(name: "Workbook"),
    // The world outside the actors: images, an image client, a market-data feed.
    .target(name: "Services"),
    // Fakes and a deterministic scheduler that every chapter's tests share.
    .target(
      name: "WorkbookTestSupport", dependencies: ["Services"], path: "Tests/WorkbookTestSupport",
      swiftSettings: [.unsafeFlags(["-O"])]),
  ]
    + chapters.flatMap { chapter in
      [
        .target(
          name: chapter.target,
          dependencies: ["Services"],
          path: "\(chapterFolder)/\(chapter.folder)"
        ),
        .testTarget(
          name: "\(chapter.target)Tests",
          dependencies: [.target(name: chapter.target), "Services", "WorkbookTestSupport"]
        ),
      ]
    },
  swiftLanguageModes: [.v6]
)
