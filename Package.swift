// swift-tools-version: 6.2
import Foundation
import PackageDescription

let environment = ProcessInfo.processInfo.environment

// A student's code lives in `Chapters/`. The workbook's self-check (`Scripts/verify`) builds the
// same targets from `Solutions/` by setting WORKBOOK_VERIFY=solutions, each variant in its own
// scratch path, so that the solutions are proved against exactly the suites students run.
let chapterFolder = environment["WORKBOOK_VERIFY"] == "solutions" ? "Solutions" : "Chapters"

/// The chapters in course order: the SwiftPM target name and the folder that holds its actor.
let chapters: [(target: String, folder: String)] = [
  ("Chapter01", "01-ImageCache"),
  ("Chapter02", "02-ImageCacheInFlight"),
  ("Chapter03", "03-MarketDataCache"),
  ("Chapter04", "04-TokenStore"),
  ("Chapter05", "05-DownloadManager"),
  ("Chapter06", "06-BuyingPower"),
  ("Chapter07", "07-QuoteStore"),
  ("Chapter08", "08-Dashboard"),
  ("Chapter09", "09-AvatarLoader"),
  ("Chapter10", "10-MarketFeed"),
  ("Chapter11", "11-SearchModel"),
  ("Chapter12", "12-StatementLoader"),
  ("Chapter13", "13-LiveQuote"),
  ("Chapter14", "14-ConnectionManager"),
  ("Chapter15", "15-UserCache"),
]

// Part III: in these chapters the student writes the test. It lives beside the actor, in the
// chapter's folder, so that `reset` and its backups cover it, and the test target takes it from
// there. `workbook check` judges it first (Sources/Workbook/Judge.swift).
let testsWrittenByTheStudent = [
  "Chapter14": "ConnectionManagerTests.swift", "Chapter15": "UserCacheTests.swift",
]

// `workbook check 3` sets WORKBOOK_CHAPTERS=03 and builds in a scratch path apart, so the package
// it builds holds chapter 03 alone (and not the `workbook` command): another chapter's unfinished
// code cannot stop it. Without the variable, the package holds every chapter. `3` means `03`.
let chosen = environment["WORKBOOK_CHAPTERS"].map {
  $0.split(separator: ",").map { number in
    let digits = number.trimmingCharacters(in: .whitespaces)
    return "Chapter\(digits.count == 1 ? "0" + digits : digits)"
  }
}

let declared = chapters.filter { chosen?.contains($0.target) ?? true }

// `workbook check 14` judges the student's test of chapter 14: it builds the test once against
// each version of the actor it keeps (the starter, wrong fixes, right designs, the student's),
// each copied under .build/judge/ as a module of its own, all in one build. WORKBOOK_JUDGE names
// those modules; the judge writes their folders before it builds.
let judged = environment["WORKBOOK_JUDGE"].map { $0.split(separator: ",").map(String.init) } ?? []

// Each chapter's target takes its own folder as its sources, out of the folder that holds them
// all, and leaves the rest of that folder out. A chapter whose folder is missing then costs
// SwiftPM's warning "Invalid Source", not the whole package: `swift run workbook` still builds,
// says which chapter is missing, and `swift run workbook reset N` brings it back. Leaving a missing
// chapter out of the manifest would not do: SwiftPM keeps the manifest it read until Package.swift
// or the environment changes, so it would not see the folder go, nor come back. What `present`
// found may be as old; that costs a warning at most.
let present =
  (try? FileManager.default.contentsOfDirectory(
    atPath: "\(Context.packageDirectory)/\(chapterFolder)"))
  ?? []

/// What a folder of the package holds, but for `kept` and hidden entries, as paths from the
/// package's root: what a target rooted above its sources leaves out.
func entries(of folder: String, except kept: [String]) -> [String] {
  ((try? FileManager.default.contentsOfDirectory(
    atPath: "\(Context.packageDirectory)/\(folder)")) ?? [])
    .filter { !kept.contains($0) && !$0.hasPrefix(".") }
    .map { folder.isEmpty ? $0 : "\(folder)/\($0)" }
}

/// A chapter's target, which builds its actor, and its test target.
func targets(of chapter: (target: String, folder: String)) -> [Target] {
  let studentTest: String? = testsWrittenByTheStudent[chapter.target].map {
    "\(chapter.folder)/\($0)"
  }
  var excluded: [String] = present.filter { $0 != chapter.folder && !$0.hasPrefix(".") }
  if let studentTest { excluded.append(studentTest) }
  // Under the Thread Sanitizer, in a build of one chapter (Scripts/check-threads builds a
  // student's chapter, or a kept fix, that way), the chapter also gets a `Mutex` that the sanitizer
  // can see (Tests/SanitizedMutex/Mutex.swift says why), so its target reaches out of its folder
  // from the package's root. One file cannot be a source of two targets, and the solutions, built
  // together there, use no Mutex.
  let actor: Target =
    environment["WORKBOOK_SANITIZER"] == nil || declared.count != 1
    ? .target(
      name: chapter.target, dependencies: ["Services"], path: chapterFolder, exclude: excluded,
      sources: [chapter.folder], swiftSettings: verifying)
    : .target(
      name: chapter.target, dependencies: ["Services"], path: ".",
      exclude: entries(of: "", except: [chapterFolder, "Tests"])
        + entries(of: "Tests", except: ["SanitizedMutex"])
        + entries(of: chapterFolder, except: [chapter.folder])
        + (studentTest.map { ["\(chapterFolder)/\($0)"] } ?? []),
      sources: ["\(chapterFolder)/\(chapter.folder)", "Tests/SanitizedMutex/Mutex.swift"])
  // A test the student writes sits beside the actor; its target leaves out everything else in
  // the folder, which SwiftPM would otherwise list, file by file, as unhandled.
  let beside =
    (try? FileManager.default.contentsOfDirectory(
      atPath: "\(Context.packageDirectory)/\(chapterFolder)/\(chapter.folder)")) ?? []
  let besideTheTest: [String] = beside.filter { !$0.hasPrefix(".") }
    .map { (file: String) -> String in "\(chapter.folder)/\(file)" }
    .filter { (path: String) -> Bool in path != studentTest }
  let tests: Target = .testTarget(
    name: "\(chapter.target)Tests",
    dependencies: [
      .target(name: chapter.target), "Services", "ScheduleExplorer", "WorkbookTestSupport",
    ],
    path: studentTest == nil ? nil : chapterFolder,
    exclude: studentTest == nil
      ? [] : present.filter { $0 != chapter.folder && !$0.hasPrefix(".") } + besideTheTest,
    sources: studentTest.map { [$0] }, swiftSettings: verifying)
  return [actor, tests]
}

/// One version of an actor that the judge tries a student's test on, and that test's copy.
func targets(judging variant: String) -> [Target] {
  // Without debug information: nobody steps through the copies, and the judge's verdict comes
  // sooner.
  let quick: [SwiftSetting] = [.unsafeFlags(["-gnone"])]
  let actor: Target = .target(
    name: variant, dependencies: ["Services"], path: ".build/judge/\(variant)/actor",
    swiftSettings: quick)
  let tests: Target = .testTarget(
    name: "\(variant)Tests",
    dependencies: [.target(name: variant), "Services", "ScheduleExplorer", "WorkbookTestSupport"],
    path: ".build/judge/\(variant)/tests", swiftSettings: quick)
  return [actor, tests]
}

// SwiftPM indexes a debug build as it compiles it, and on Linux it asks the compiler to index the
// system modules that each file imports as well. To do that the compiler rebuilds Glibc,
// _Concurrency, Synchronization and _StringProcessing from their interfaces, once in every
// scratch path: 6.5 s of a one-file package's 8.7 s build on the two-core machine (Swift 6.3).
// The `workbook` command, which a student builds first, indexes its own code only: a fresh
// clone's `swift run workbook` took 8 s instead of 13. The builds that `workbook` starts pass
// the same flag to every module on the command line (Sources/Workbook/SuiteRun.swift). It is the
// one unsafe flag read without the workbook's variables: SwiftPM refuses unsafe flags only in the
// targets of a product that a package depending on this one by version uses, and none builds the
// command (`Scripts/check-example` checks the library's target).
let ownCodeIndexed: [SwiftSetting] = [.unsafeFlags(["-index-ignore-system-modules"])]

// The explorer runs its own code thousands of times in a test, and a debug build of it is about
// three times slower: chapter 02's solution's suite took 1.05 s instead of 0.35 s. The self-check
// (WORKBOOK_VERIFY), whose test time is the course's budget, builds it optimised. A student's
// check (WORKBOOK_CHAPTERS) does not: optimised, a fresh clone's first `check 1` built in 27.5 s
// instead of 16.9 s, and only a passing suite runs its whole exploration (1.05 s at most, in
// chapter 02); a failing one stops at the first broken promise. Without either variable, as when another package depends
// on this one for `ScheduleExplorer`, it carries no unsafe flags, which SwiftPM refuses in a
// package that is a dependency by version.
// The course's fakes are left as a debug build makes them: optimising them too made a fresh
// clone's first `check 1` 31.5 s instead of 21.1 s, and the solutions' tests no quicker (both
// 1.4–1.8 s at a load of 2.5; Scripts/benchmark-check --first-red).
let optimised: [SwiftSetting] =
  environment["WORKBOOK_VERIFY"] != nil ? [.unsafeFlags(["-O"])] : []

// The self-check (WORKBOOK_VERIFY) runs every suite of every chapter, on the solutions and on the
// starters, and its test time is the course's budget: there the fakes, the chapters and their
// tests are optimised too. The solutions' suites then took 2.0 s instead of 2.5 s in one process
// (three runs each, two busy cores). A student's check leaves them as a debug build makes them,
// which compiles sooner, and a chapter's suite takes a few tenths of a second either way. The
// Thread Sanitizer's build (WORKBOOK_SANITIZER) stays a debug build: the optimiser may merge or
// drop the very loads and stores whose race the sanitizer is there to report.
let verifying: [SwiftSetting] =
  environment["WORKBOOK_VERIFY"] != nil && environment["WORKBOOK_SANITIZER"] == nil
  ? [.unsafeFlags(["-O"])] : []

let package = Package(
  name: "ActorReentrancyWorkbook",
  platforms: [.macOS(.v15)],
  products: [
    // The explorer, for testing actors of one's own: Docs/Testing-Your-Own-Actors.md.
    .library(name: "ScheduleExplorer", targets: ["ScheduleExplorer"])
  ]
    // `swift run workbook`: the course's table of contents, checks, hints, diffs and resets.
    + (chosen == nil ? [.executable(name: "workbook", targets: ["Workbook"])] : []),
  targets: (chosen == nil
    ? [.executableTarget(name: "Workbook", swiftSettings: ownCodeIndexed)] : [])
    + [
      // The world outside the actors: images, an image client, a market-data feed.
      .target(name: "Services", swiftSettings: verifying),
      // The deterministic scheduler, scenarios, requests, timelines and the explorer: nothing of
      // the course's own, so that anyone can test an actor of theirs with it.
      .target(name: "ScheduleExplorer", swiftSettings: optimised),
      // The course's fakes of its services, and the trait its self-check reads.
      .target(
        name: "WorkbookTestSupport", dependencies: ["ScheduleExplorer", "Services"],
        path: "Tests/WorkbookTestSupport", swiftSettings: verifying),
    ]
    + declared.flatMap(targets(of:)) + judged.flatMap(targets(judging:)),
  swiftLanguageModes: [.v6]
)
