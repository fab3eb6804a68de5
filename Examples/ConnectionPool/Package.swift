// swift-tools-version: 6.2
import Foundation
import PackageDescription

// The pool as it ships has a reentrancy bug. `CONNECTION_POOL_FIXED=1 swift test` builds it with
// its fix instead, so that the same test can be seen red and then green.
let fixed = ProcessInfo.processInfo.environment["CONNECTION_POOL_FIXED"] == "1"

let package = Package(
  name: "ConnectionPoolExample",
  platforms: [.macOS(.v15)],
  dependencies: [
    // The workbook, for its ScheduleExplorer library. The name lets the product below name the
    // package whatever the workbook's folder is called; another project would give the
    // workbook's repository and a version here instead.
    .package(name: "ActorReentrancyWorkbook", path: "../..")
  ],
  targets: [
    .target(
      name: "ConnectionPool",
      swiftSettings: fixed ? [.define("CONNECTION_POOL_FIXED")] : []),
    .testTarget(
      name: "ConnectionPoolTests",
      dependencies: [
        "ConnectionPool",
        .product(name: "ScheduleExplorer", package: "ActorReentrancyWorkbook"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)
