import ReckonStore
import Testing

@testable import ReckonSession

/// Leitner boxes, local days, fact names and the choice of facts for review.
@Suite struct LearningTests {
  static let day: Int64 = 86_400_000
  static let now: Int64 = 1_700_000_000_000

  /// 22:13:20 UTC on Tuesday 14 November 2023, and the midnight before it.
  static let midnight: Int64 = 1_699_920_000_000

  @Test(
    "a right answer moves a due fact up one box, due from the start of a later day; a wrong one sends it to box 1",
    arguments: [
      (nil, true, FactState(box: 2, dueAt: midnight + day)),
      (nil, false, FactState(box: 1, dueAt: now)),
      (FactState(box: 1, dueAt: now - 5), true, FactState(box: 2, dueAt: midnight + day)),
      (FactState(box: 2, dueAt: now), true, FactState(box: 3, dueAt: midnight + 3 * day)),
      (FactState(box: 3, dueAt: now - day), true, FactState(box: 4, dueAt: midnight + 7 * day)),
      (FactState(box: 4, dueAt: now), true, FactState(box: 5, dueAt: midnight + 14 * day)),
      (FactState(box: 5, dueAt: now), true, FactState(box: 5, dueAt: midnight + 14 * day)),
      (FactState(box: 5, dueAt: now + day), false, FactState(box: 1, dueAt: now)),
      // Not due yet: a right answer proves nothing new and changes nothing.
      (FactState(box: 3, dueAt: now + 1), true, FactState(box: 3, dueAt: now + 1)),
    ] as [(FactState?, Bool, FactState)])
  func leitner(_ before: FactState?, _ correct: Bool, _ after: FactState) {
    #expect(Leitner().next(after: before, correct: correct, at: LearningTests.now) == after)
  }

  /// Three hours east of UTC it is already 01:13 on the 15th: the next day starts at the
  /// local midnight after that.
  @Test func daysBeginAtLocalMidnight() {
    let next = Leitner(utcOffsetSeconds: 3 * 3600).next(after: nil, correct: true, at: LearningTests.now)
    #expect(next == FactState(box: 2, dueAt: LearningTests.midnight + 2 * LearningTests.day - 3 * 3_600_000))
  }

  @Test(
    arguments: [
      (nil, Mastery.new), (1, .learning), (2, .familiar), (3, .familiar), (4, .known), (5, .known),
    ] as [(Int?, Mastery)])
  func mastery(_ box: Int?, _ mastery: Mastery) {
    #expect(Mastery(box.map { FactState(box: $0, dueAt: 0) }) == mastery)
  }

  @Test(
    "calendar days",
    arguments: [
      (1970, 1, 1, 0, 3, "1970-01-01"), (1969, 12, 31, -1, 2, "1969-12-31"), (2000, 2, 29, 11_016, 1, "2000-02-29"),
      (2023, 11, 14, 19_675, 1, "2023-11-14"), (2026, 11, 23, 20_780, 0, "2026-11-23"),
      (2100, 3, 1, 47_541, 0, "2100-03-01"),
    ])
  func days(_ year: Int, _ month: Int, _ day: Int, _ number: Int, _ weekday: Int, _ iso: String) throws {
    let d = try #require(Day(year: year, month: month, day: day))
    #expect(d.number == number)
    #expect(d.weekday == weekday)
    #expect(d.iso == iso)
    #expect(d.civil == (year, month, day))
  }

  @Test func everyDayForTwoCenturiesReadsBack() {
    for number in -30_000...50_000 {
      let d = Day(number: number)
      let (y, m, dd) = d.civil
      #expect(Day(year: y, month: m, day: dd) == d)
    }
    #expect(Day(year: 2023, month: 2, day: 29) == nil)
    #expect(Day(year: 2023, month: 13, day: 1) == nil)
  }

  /// Other values the store hands back, at the limits of Int64: a drill fact's item, a daily
  /// challenge's time, an anagram round's counts. Each is left out or taken within range,
  /// never overflowed.
  @Test func otherStoredValuesAtTheLimitsDoNotTrap() {
    #expect(Fact(item: "9223372036854775807×2") == nil && Fact(item: "2×9223372036854775807") == nil)
    #expect(Fact(item: "9223372036854775807+1") == nil && Fact(item: "1000001×1") == nil)
    #expect(Fact(item: "100×100")?.answer == 10_000)
    #expect(TriviaStatistics.median([.max, .max]) == .max && abs(TriviaStatistics.median([.min, .max])) <= 1)
    #expect(TriviaStatistics.median([.min, .min]) == .min && TriviaStatistics.median([3, 6]) == 4)
    #expect(Durations.seconds(.max) == "9223372036854775.8 s" && Durations.seconds(149) == "0.1 s")
    #expect(Durations.seconds(150) == "0.2 s" && Durations.minutesAndSeconds(.max) == "153722867280912:55")
    let round = { (score: Int, solved: Int, played: Int) in
      AnagramRecord(
        GameResult(
          profile: "ada", game: "anagram", startedAt: 0, day: Day(number: 0), finished: true, score: score,
          data: "{\"level\":\"easy\",\"solved\":\(solved),\"played\":\(played)}"))
    }
    #expect(round(120, 3, 5) != nil)
    #expect(round(.max, 3, 5) == nil && round(-1, 3, 5) == nil)
    #expect(round(120, 8_000_000_000_000_000, 8_000_000_000_000_000) == nil && round(120, 6, 5) == nil)
  }

  /// A date is one from the year 1 to 9999; the arithmetic on days never traps, whatever a
  /// stored day or moment holds (a value that slipped through is a strange date, not a crash).
  @Test func daysAtTheLimitsOfAnIntegerDoNotTrap() {
    #expect(Day(year: 0, month: 12, day: 31) == nil && Day(year: 10_000, month: 1, day: 1) == nil)
    #expect(Day(year: Int.max, month: 1, day: 1) == nil && Day(year: Int.min, month: 1, day: 1) == nil)
    #expect(Day(year: 1, month: 1, day: 1)?.number == Day.supportedNumbers.lowerBound)
    #expect(Day(year: 9999, month: 12, day: 31)?.number == Day.supportedNumbers.upperBound)
    #expect(Day(milliseconds: Day.supportedMilliseconds.lowerBound, utcOffsetSeconds: 0) == Day.supported.lowerBound)
    #expect(Day(milliseconds: Day.supportedMilliseconds.upperBound, utcOffsetSeconds: 0) == Day.supported.upperBound)
    #expect(Day(milliseconds: -1, utcOffsetSeconds: 0).number == -1)
    #expect(Day(milliseconds: -86_400_000, utcOffsetSeconds: 0).number == -1)
    #expect(Day(milliseconds: -86_400_001, utcOffsetSeconds: 0).number == -2)
    for ms in [Int64.max, Int64.min, Int64.max - 1, Int64.min + 1] {
      for offset in [-50_400, 0, 50_400, Int.max, Int.min] {
        let day = Day(milliseconds: ms, utcOffsetSeconds: offset)
        #expect((ms > 0) == (day.number > 0))
        _ = (day.iso, day.shortLabel, day.weekday)
      }
    }
    for number in [Int.max, Int.min, Int.max - 719_468, Int.min + 1] {
      let day = Day(number: number)
      _ = (day.iso, day.shortLabel, day.weekday)
      #expect(day.advanced(by: number > 0 ? Int.max : Int.min).number == (number > 0 ? Int.max : Int.min))
      #expect(day.distance(to: Day(number: number > 0 ? Int.min : Int.max)) == (number > 0 ? Int.min : Int.max))
    }
  }

  @Test(
    "the local day depends on the offset from UTC",
    arguments: [
      // 2023-11-14 23:30 UTC
      (1_700_004_600_000, 0, "2023-11-14"), (1_700_004_600_000, 3600, "2023-11-15"),
      (1_700_004_600_000, -8 * 3600, "2023-11-14"),
      // 2023-11-15 00:30 UTC
      (1_700_008_200_000, -3600, "2023-11-14"), (-1, 0, "1969-12-31"),
    ] as [(Int64, Int, String)])
  func localDay(_ milliseconds: Int64, _ offset: Int, _ iso: String) {
    #expect(Day(milliseconds: milliseconds, utcOffsetSeconds: offset).iso == iso)
  }

  @Test func everyFactReadsBackFromItsName() {
    for operation in Fact.Operation.allCases {
      for table in 1...100 {
        for operand in 2...100 {
          let fact = Fact(table, operand, operation)
          #expect(Fact(item: fact.item) == fact, "\(fact.item)")
        }
      }
    }
    #expect(Fact(7, 8).item == "7×8")
    #expect(Fact(7, 8, .subtract).item == "15−7")
    #expect(Fact(7, 8, .divide).item == "56÷7")
    for bad in ["", "7x8", "7×", "×8", "7×8×2", "15−15", "57÷7", "abc", "7 × 8"] {
      #expect(Fact(item: bad) == nil, "\(bad)")
    }
  }

  @Test(arguments: [
    "", "7", "2-12 random count 20", "+ range 20", "÷ 5 max 10", "3-4 count 5 − order", "all random endless",
    "7 8", "3-5,8 random", "7 and 9, 12 count 5", "2-4 6 8-10 ÷", "all 11 12",
  ])
  func drillOptionsReadBackFromTheirArguments(_ words: String) throws {
    let options = try DrillOptions().applying(words.split(separator: " ").map(String.init))
    let again = try DrillOptions().applying(options.arguments.split(separator: " ").map(String.init))
    #expect(again == options)
  }

  /// What the release before lists of tables saved still reads, as the same options.
  @Test func drillOptionsSavedByTheOldReleaseStillRead() throws {
    let defaults = try DrillOptions().applying("2-9 max 12 order endless ×".split(separator: " ").map(String.init))
    #expect(defaults == DrillOptions())
    var options = DrillOptions()
    options.tables = [3, 4]
    options.maximum = 10
    options.random = true
    options.count = 20
    options.operation = .subtract
    #expect(
      try DrillOptions().applying("3-4 max 10 random count 20 −".split(separator: " ").map(String.init)) == options)
  }

  @Test(
    "the streak counts back from today, or from yesterday when today is still to come",
    arguments: [
      ([], 0, false), ([10], 1, true), ([9], 1, false), ([10, 9, 8, 6], 3, true), ([9, 8, 7], 3, false),
      ([8, 7], 0, false), ([10, 8], 1, true),
    ] as [([Int], Int, Bool)])
  func streak(_ days: [Int], _ length: Int, _ includesToday: Bool) {
    let result = Streaks.ending(days.map(Day.init(number:)), today: Day(number: 10))
    #expect(result.length == length)
    #expect(result.includesToday == includesToday)
  }

  /// Records (right, wrong, shown, box, time) weakest first by the rule,
  /// (wrong + shown + 1) / (answers + shown + 2), then the lower box, then the slower, and
  /// whether `stats` names each (missed or shown at least once for every two right answers).
  static let records: [(item: String, record: FactRecord, named: Bool)] = [
    ("6×7", FactRecord(right: 0, wrong: 3, shown: 0, box: 1, milliseconds: 6000), true),  // 4/5
    ("4×5", FactRecord(right: 0, wrong: 1, shown: 1, box: 1, milliseconds: 2000), true),  // 3/4
    // 2/3 each: a wrong answer and a shown one count alike; then the lower box, then the slower.
    ("2×3", FactRecord(right: 0, wrong: 1, shown: 0, box: 1, milliseconds: 2000), true),
    ("5×5", FactRecord(right: 0, wrong: 0, shown: 1, box: 1, milliseconds: 0), true),
    ("8×9", FactRecord(right: 1, wrong: 3, shown: 0, box: 2, milliseconds: 8000), true),
    // 1/2 each, the same box: the slower first.
    ("3×4", FactRecord(right: 2, wrong: 2, shown: 0, box: 2, milliseconds: 12000), true),
    ("3×5", FactRecord(right: 2, wrong: 2, shown: 0, box: 2, milliseconds: 8000), true),
    // 1/3 each: right three times and shown once (box 1) is weaker than right once (box 2),
    // but neither is worth naming.
    ("7×8", FactRecord(right: 3, wrong: 0, shown: 1, box: 1, milliseconds: 6000), false),
    ("6×6", FactRecord(right: 1, wrong: 0, shown: 0, box: 2, milliseconds: 2000), false),
    ("9×9", FactRecord(right: 9, wrong: 0, shown: 0, box: 5, milliseconds: 9000), false),  // 1/11
  ]

  static func store(_ records: [(item: String, record: FactRecord, named: Bool)], dueAt: (String) -> Int64 = { _ in 0 })
    -> (states: [String: FactState], totals: [String: ItemTotals])
  {
    var states: [String: FactState] = [:]
    var totals: [String: ItemTotals] = [:]
    for (item, r, _) in records {
      states[item] = FactState(box: r.box, dueAt: dueAt(item))
      totals[item] = ItemTotals(answered: r.answered, right: r.right, milliseconds: r.milliseconds, shown: r.shown)
    }
    return (states, totals)
  }

  @Test func weaknessRanksTheWholeRecord() {
    let (states, totals) = Self.store(Self.records.shuffled())
    #expect(FactSelection.weakest(states, totals: totals, limit: 10).map(\.item) == Self.records.map(\.item))
    #expect(FactSelection.weakest(states, totals: totals, limit: 2).map(\.item) == ["6×7", "4×5"])
    for (item, record, named) in Self.records { #expect(record.isWorthNaming == named, "\(item)") }
    // Each is weaker than every one after it, and none is weaker than itself.
    for (i, a) in Self.records.enumerated() {
      #expect(!a.record.isWeaker(than: a.record))
      for b in Self.records[(i + 1)...] {
        #expect(a.record.isWeaker(than: b.record) && !b.record.isWeaker(than: a.record))
      }
    }
  }

  /// The case that the box-first order got wrong: right every time it was scored and then
  /// shown once (box 1) against missed three times out of four (box 2 after a right answer).
  @Test func threeMissesOutOfFourAreWeakerThanOneShownAnswer() {
    let missed = FactRecord(right: 1, wrong: 3, shown: 0, box: 2, milliseconds: 4000)
    let shownOnce = FactRecord(right: 3, wrong: 0, shown: 1, box: 1, milliseconds: 3000)
    #expect(missed.isWeaker(than: shownOnce))
    #expect(!shownOnce.isWeaker(than: missed))
    #expect(missed.weakness == (4, 6) && shownOnce.weakness == (2, 6))
  }

  /// A fact only ever shown, never answered, has a record too (box 1, from the shown answer).
  @Test func aFactOnlyShownIsAmongTheWeakest() {
    let states = ["7×8": FactState(box: 1, dueAt: 0), "2×2": FactState(box: 3, dueAt: 0)]
    let totals = [
      "7×8": ItemTotals(answered: 0, right: 0, milliseconds: 0, shown: 2),
      "2×2": ItemTotals(answered: 3, right: 3, milliseconds: 3000),
    ]
    #expect(FactSelection.weakest(states, totals: totals, limit: 10).map(\.item) == ["7×8", "2×2"])
  }

  /// A review asks the facts due, by the same rule; equals, the longest overdue first.
  @Test func reviewAsksTheDueFactsWeakestFirst() {
    let due: [String: Int64] = ["6×7": 300, "2×3": 100, "5×5": 200, "3×4": 50, "3×5": 60, "7×8": 10, "9×9": 400]
    let (states, totals) = Self.store(Self.records) { due[$0] ?? 1000 }
    #expect(
      FactSelection.due(states, totals: totals, now: 500).map(\.item) == [
        "6×7", "2×3", "5×5", "3×4", "3×5", "7×8", "9×9",
      ])
    var twins = Self.store(
      [Self.records[2], Self.records[2]].enumerated().map { ("\($0.offset + 2)×3", $0.element.record, true) })
    twins.states["2×3"]?.dueAt = 90
    twins.states["3×3"]?.dueAt = 80
    #expect(FactSelection.due(twins.states, totals: twins.totals, now: 500).map(\.item) == ["3×3", "2×3"])
  }

  @Test(
    "profile names",
    arguments: [
      ("ada", nil), ("Zoë", nil), ("kid-2.b_c", nil), ("7", nil), ("A.b-C_9", nil), ("Ωmega", nil),
      (String(repeating: "a", count: 32), nil), ("", "a profile needs a name"),
      ("é b", "a profile name holds only letters, digits, '-', '_' and '.'"),
      ("-x", "a profile name starts with a letter or a digit"),
      ("a b", "a profile name holds only letters, digits, '-', '_' and '.'"),
      ("a/b", "a profile name holds only letters, digits, '-', '_' and '.'"),
      (String(repeating: "a", count: 33), "a profile name has at most 32 characters"),
    ] as [(String, String?)])
  func profileNames(_ name: String, _ problem: String?) {
    #expect(Profiles.problem(with: name) == problem)
  }

  @Test func theStartingProfileIsTheLoginNameWhenItCanBeOne() {
    #expect(Profiles.initial(loginName: "ada") == "ada")
    #expect(Profiles.initial(loginName: "first last") == "default")
    #expect(Profiles.initial(loginName: nil) == "default")
  }
}
