/// Draws what a scenario observed as lanes, one per caller, for the end of a failure message.
///
/// Each lane lists its caller's events in order; the step numbers give the order across lanes, so
/// a student can see who checked the cache, who suspended, and who came in during the gap:
///
///     caller A | 1 calls image(for: cat.png) · 2 download #1 of cat.png starts · …
///     caller B | 3 calls image(for: cat.png) · 4 download #2 of cat.png starts · …
///     test     | 5 lets the downloads finish
func drawTimeline(_ events: [Event]) -> String {
  guard !events.isEmpty else { return "Timeline: nothing happened." }
  var lanes: [String: [String]] = [:]
  for (index, event) in events.enumerated() {
    let lane = event.isTestStep ? "test" : event.caller.map(laneName) ?? Choice.unnamed
    lanes[lane, default: []].append("\(index + 1) \(event.text)")
  }
  // A held caller's lane stops where it was held; say so, or it reads as a caller who is done.
  for (caller, step) in heldToTheEnd(events) {
    lanes[laneName(caller)]?.append("(held back at step \(step) until the timeline ends)")
  }
  let order = lanes.keys.sorted { laneRank($0) < laneRank($1) }
  let width = order.map(\.count).max() ?? 0
  var lines = ["Timeline, one lane per caller (numbers give the order across lanes):"]
  for lane in order {
    let name = lane.padding(toLength: width, withPad: " ", startingAt: 0)
    lines.append("  \(name) | " + lanes[lane, default: []].joined(separator: " · "))
  }
  if lanes[Choice.unnamed] != nil {
    lines.append("  (work that no caller started has a lane of its own)")
  }
  if events.contains(where: { $0.text == Event.workOutsideTheScheduler }) {
    lines.append(
      """
        (A task that no caller runs, such as a `Task {}` body, went on on one of the runtime's own \
      threads, where the tests neither see nor order it: `Task.yield()` in such a task, away from \
      any actor, does that on Swift 6.3.1. What it did next is not under the tests' control, and \
      this verdict may be about that rather than about the actor.)
      """)
  }
  return lines.joined(separator: "\n")
}

/// The callers that a step of the test's held back (`holds A back`, `holds A, B back`) and no
/// later step let go (`lets A resume`), and that did nothing after it, each with the number of the
/// step that held it. An answer to a held caller's request comes in its lane all the same.
private func heldToTheEnd(_ events: [Event]) -> [(caller: String, step: Int)] {
  func names(in text: String, after start: String, before end: String) -> [String] {
    guard text.hasPrefix(start), text.hasSuffix(end), text.count > start.count + end.count else {
      return []
    }
    let names = text.dropFirst(start.count).dropLast(end.count).components(separatedBy: ", ")
    return names.allSatisfy(Scenario.isCallerName) ? names : []
  }
  var held: [String: Int] = [:]
  for (index, event) in events.enumerated() {
    if event.isTestStep {
      for name in names(in: event.text, after: "holds ", before: " back") { held[name] = index + 1 }
      for name in names(in: event.text, after: "lets ", before: " resume") { held[name] = nil }
    } else if let caller = event.caller, event.showsItsCallerRunning {
      held[caller] = nil
    }
  }
  return held.map { ($0.key, $0.value) }
}

/// `caller A` for a caller the scenario started, the plain name for a fake's own lane (`socket`).
private func laneName(_ caller: String) -> String {
  Scenario.isCallerName(caller) ? "caller \(caller)" : caller
}

/// Callers first, in name order, then the test's own steps, then unattributed work.
private func laneRank(_ lane: String) -> (Int, String) {
  switch lane {
  case "test": (1, lane)
  case Choice.unnamed: (2, lane)
  default: (0, lane)
  }
}
