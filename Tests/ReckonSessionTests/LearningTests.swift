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
    let result = Statistics.streak(days: days.map(Day.init(number:)), today: Day(number: 10))
    #expect(result.length == length)
    #expect(result.includesToday == includesToday)
  }

  @Test func reviewAsksTheDueFactsWeakestFirst() {
    let states = [
      "2×3": FactState(box: 3, dueAt: 100), "4×5": FactState(box: 1, dueAt: 300), "6×7": FactState(box: 1, dueAt: 200),
      "8×9": FactState(box: 2, dueAt: 1000), "9×9": FactState(box: 5, dueAt: 50),
    ]
    #expect(FactSelection.due(states, now: 500).map(\.item) == ["6×7", "4×5", "2×3", "9×9"])
  }

  @Test func weakestAreTheLowestBoxThenTheLeastRightThenTheSlowest() {
    let states = [
      "2×3": FactState(box: 2, dueAt: 0), "4×5": FactState(box: 1, dueAt: 0), "6×7": FactState(box: 1, dueAt: 0),
      "8×9": FactState(box: 2, dueAt: 0), "9×9": FactState(box: 5, dueAt: 0),
    ]
    let totals = [
      "2×3": ItemTotals(answered: 4, right: 3, milliseconds: 4000),
      "4×5": ItemTotals(answered: 2, right: 1, milliseconds: 2000),
      "6×7": ItemTotals(answered: 4, right: 1, milliseconds: 4000),
      "8×9": ItemTotals(answered: 4, right: 3, milliseconds: 8000),
      "9×9": ItemTotals(answered: 9, right: 9, milliseconds: 9000),
    ]
    #expect(
      FactSelection.weakest(states, totals: totals, limit: 10).map(\.item) == ["6×7", "4×5", "8×9", "2×3", "9×9"])
    #expect(FactSelection.weakest(states, totals: totals, limit: 2).map(\.item) == ["6×7", "4×5"])
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
