import Foundation
import Testing

@testable import ReckonSession

/// FSRS against its reference implementation, `fsrs` version 6 from PyPI, run from the venv
/// that scripts/oracle-python makes: thousands of generated review histories replayed through
/// both give the same phases and steps, stabilities and difficulties to within 1e-6, and the
/// same due times; fuzz spreads intervals over the reference's range.
@Suite struct FSRSTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The reference: reads `[[start, [[rating, at], …]], …]` (milliseconds) and prints, for each
  /// review, the card after it: phase step stability difficulty due (ms), a line each.
  static let reference = #"""
    import json, sys
    from datetime import datetime, timedelta, timezone
    from fsrs import Scheduler, Card, Rating, State
    scheduler = Scheduler(enable_fuzzing=False)
    # Exact: fromtimestamp(ms / 1000) goes through a float, and a whole number of days apart
    # can come out a microsecond short of it.
    EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
    def at(ms): return EPOCH + timedelta(milliseconds=ms)
    out = []
    for index, (start, reviews) in enumerate(json.load(sys.stdin)):
        card = Card(card_id=index + 1, due=at(start))
        for rating, ms in reviews:
            card, _ = scheduler.review_card(card, Rating(rating), review_datetime=at(ms))
            due = (card.due - EPOCH) // timedelta(milliseconds=1)
            out.append(f"{card.state.value} {-1 if card.step is None else card.step} {card.stability!r} {card.difficulty!r} {due}")
    print("\n".join(out))
    """#

  static func oraclePython() throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["bash", root.appendingPathComponent("scripts/oracle-python").path]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let path = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    try #require(process.terminationStatus == 0 && !path.isEmpty, "scripts/oracle-python found no Python with fsrs")
    return path
  }

  static func runReference(_ script: String, input: Data) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try oraclePython())
    process.arguments = ["-c", script]
    let stdin = Pipe()
    let stdout = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    try process.run()
    stdin.fileHandleForWriting.write(input)
    try stdin.fileHandleForWriting.close()
    let data = stdout.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "the reference failed")
    return String(decoding: data, as: UTF8.self)
  }

  /// A review history: a rating each time, at moments that follow the card's schedule
  /// loosely (on time, early, late, the same minute, months later).
  static func history(_ random: inout SeededRandom, start: Int64) -> [(FSRS.Rating, Int64)] {
    let scheduler = FSRS(fuzz: false)
    var card = FSRS.Card(due: start)
    var now = start
    var reviews: [(FSRS.Rating, Int64)] = []
    for _ in 0..<Int.random(in: 1...20, using: &random) {
      let ratings: [FSRS.Rating] = [.again, .hard, .good, .good, .good, .easy]
      let rating = ratings[Int.random(in: 0..<ratings.count, using: &random)]
      reviews.append((rating, now))
      card = scheduler.review(card, rating, at: now, random: &random)
      let waited = card.due - now
      switch Int.random(in: 0..<6, using: &random) {
      case 0: now += Int64.random(in: 0...600_000, using: &random)  // soon, the same day
      case 1: now += waited / 2  // early
      case 2: now += waited * 3  // late
      case 3:
        now += Int64.random(in: 1...400, using: &random) * FSRS.day + Int64.random(in: 0..<FSRS.day, using: &random)
      default: now = card.due + Int64.random(in: 0..<3_600_000, using: &random)  // on time
      }
    }
    return reviews
  }

  @Test func reviewHistoriesGiveTheReferencesStates() throws {
    var random = SeededRandom(seed: 6)
    let scheduler = FSRS(fuzz: false)
    var histories: [(Int64, [(FSRS.Rating, Int64)])] = []
    for _ in 0..<3000 {
      let start = 1_700_000_000_000 + Int64.random(in: 0..<(400 * FSRS.day), using: &random)
      histories.append((start, Self.history(&random, start: start)))
    }
    let json =
      "["
      + histories.map { start, reviews in
        "[\(start),[" + reviews.map { "[\($0.0.rawValue),\($0.1)]" }.joined(separator: ",") + "]]"
      }.joined(separator: ",") + "]"
    let lines = try Self.runReference(Self.reference, input: Data(json.utf8)).split(separator: "\n")
    var index = 0
    var compared = 0
    var unused = SeededRandom(seed: 0)
    for (start, reviews) in histories {
      var card = FSRS.Card(due: start)
      for (rating, at) in reviews {
        card = scheduler.review(card, rating, at: at, random: &unused)
        try #require(index < lines.count, "the reference gave \(lines.count) states")
        let fields = lines[index].split(separator: " ")
        index += 1
        let (phase, step) = (Int(fields[0])!, Int(fields[1])!)
        let (stability, difficulty, due) = (Double(fields[2])!, Double(fields[3])!, Int64(fields[4])!)
        #expect(card.phase.rawValue == phase && (card.step ?? -1) == step, "review \(index): \(card) vs \(fields)")
        #expect(abs(card.stability! - stability) <= 1e-6 * max(1, stability), "review \(index): \(card) vs \(fields)")
        #expect(abs(card.difficulty! - difficulty) <= 1e-6, "review \(index): \(card) vs \(fields)")
        #expect(card.due == due, "review \(index): \(card) vs \(fields)")
        compared += 1
      }
    }
    #expect(index == lines.count)
    #expect(compared > 20_000)
  }

  /// Fuzz: the reference's spread of an interval, seen over many draws, is this one's range,
  /// and every fuzzed interval falls in it.
  @Test func fuzzSpreadsOverTheReferencesRange() throws {
    let script = #"""
      import sys, random
      from datetime import timedelta
      from fsrs import Scheduler
      random.seed(7)
      s = Scheduler()
      for days in range(3, 400, 7):
          seen = [s._get_fuzzed_interval(interval=timedelta(days=days)).days for _ in range(3000)]
          print(days, min(seen), max(seen))
      """#
    let scheduler = FSRS()
    var random = SeededRandom(seed: 9)
    for line in try Self.runReference(script, input: Data()).split(separator: "\n") {
      let f = line.split(separator: " ").map { Int64($0)! }
      // (Both draw from [low, high + 1) and round, so high + 1 comes up too, at the rate of
      // half a day in the range.)
      let (low, nominal) = scheduler.fuzzRange(f[0])
      let high = min(nominal + 1, Int64(scheduler.maximumInterval))
      #expect(low == f[1] && high == f[2], "\(f[0]) days: \(low)...\(high), the reference \(f[1])...\(f[2])")
      for _ in 0..<50 {
        let days = scheduler.fuzzed(f[0] * FSRS.day, random: &random) / FSRS.day
        #expect((low...high).contains(days))
      }
    }
  }
}
