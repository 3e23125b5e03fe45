import ReckonCore

/// `stats quiz`: the trivia answers and the daily challenges of the current profile.
enum TriviaStatistics {
  /// What the report is made from: one profile's trivia answers and daily challenges.
  struct Snapshot: Sendable {
    var profile: String
    var today: Day
    var quiz: [AnswerGroup]
    var daily: [AnswerGroup]
    /// Every daily challenge, oldest first.
    var challenges: [DailyRecord]
  }

  /// The report for the session's profile: a snapshot read from the store, then worked out.
  static func report(for state: SessionState) -> [Output] {
    guard let store = state.store else {
      return [.note("Progress is not being saved in this session, so there are no statistics.")]
    }
    do {
      return report(try snapshot(of: store, profile: state.profile, today: state.clock.today()))
    } catch {
      return [.warning("the statistics could not be read: \(error.message)")]
    }
  }

  /// Reads what the report needs.
  static func snapshot(of store: any Store, profile: String, today: Day) throws(StoreError) -> Snapshot {
    Snapshot(
      profile: profile, today: today,
      quiz: try store.read(Answers.Groups(profile: profile, mode: QuizMode.storeMode)),
      daily: try store.read(Answers.Groups(profile: profile, mode: DailyMode.storeMode)),
      challenges: try store.read(
        DailyChallenges.Days(profile: profile, from: Day(number: Int(Int32.min)), through: today)))
  }

  /// The report, worked out from a snapshot alone.
  static func report(_ snapshot: Snapshot) -> [Output] {
    let (profile, today, quiz, daily, challenges) = (
      snapshot.profile, snapshot.today, snapshot.quiz, snapshot.daily, snapshot.challenges
    )
    // (What opening the store found, a damaged file say, comes first: `Session` adds it.)
    var outputs: [Output] = []
    let all = quiz + daily
    let answered = all.reduce(0) { $0 + $1.answered }
    guard answered > 0 || !challenges.isEmpty else {
      return [.note("No quiz answers yet for \(profile). Start with: quiz, or daily")]
    }
    let right = all.reduce(0) { $0 + $1.right }
    let inQuizzes = quiz.reduce(0) { $0 + $1.answered }
    outputs.append(
      .note(
        "Quiz progress for \(profile): \(Wording.count(answered, "question")) answered, "
          + "\(Wording.percent(right, of: answered)) right (\(inQuizzes.grouped) in quizzes, "
          + "\((answered - inQuizzes).grouped) in daily challenges)."))
    if answered > 0 {
      outputs.append(
        .table(breakdown(all, by: { $0.difficulty }, title: "difficulty", order: Difficulty.allCases.map(\.rawValue))))
      outputs.append(.table(breakdown(all, by: { $0.category }, title: "category", order: nil)))
    }
    outputs += dailyReport(challenges, today: today)
    return outputs
  }

  /// Answered and right, grouped by one of the group's names.
  static func breakdown(
    _ groups: [AnswerGroup], by name: (AnswerGroup) -> String, title: String, order: [String]?
  ) -> [[String]] {
    var totals: [String: (answered: Int, right: Int)] = [:]
    for g in groups {
      let t = totals[name(g), default: (0, 0)]
      totals[name(g)] = (t.answered + g.answered, t.right + g.right)
    }
    let names = order?.filter { totals[$0] != nil } ?? totals.keys.sorted()
    return [[title, "answered", "right"]]
      + names.map { [$0, totals[$0]!.answered.grouped, Wording.percent(totals[$0]!.right, of: totals[$0]!.answered)] }
  }

  static func dailyReport(_ challenges: [DailyRecord], today: Day) -> [Output] {
    let finished = challenges.filter(\.finished)
    var outputs: [Output] = [.note(streakLine(finished, today: today))]
    guard !finished.isEmpty else { return outputs }
    var rows = [["daily", "answered", "right", "best", "median"]]
    for level in Difficulty.allCases {
      let done = finished.filter { $0.difficulty == level.rawValue }
      guard !done.isEmpty else { continue }
      let rightTimes = done.filter(\.correct).map(\.elapsedMilliseconds)
      rows.append([
        level.rawValue, done.count.grouped, Wording.percent(rightTimes.count, of: done.count),
        rightTimes.min().map(Durations.minutesAndSeconds) ?? "–",
        Durations.minutesAndSeconds(median(done.map(\.elapsedMilliseconds))),
      ])
    }
    outputs.append(.table(rows))
    outputs.append(.note("Best is the fastest right answer; the median counts every answer."))
    outputs.append(.note("Last \(Streaks.chartDays) days of daily challenges (right answers of 3):"))
    outputs.append(.chart(chart(challenges, today: today)))
    return outputs
  }

  /// The middle time (the mean of the middle two for an even count).
  static func median(_ times: [Int64]) -> Int64 {
    let sorted = times.sorted()
    let middle = sorted.count / 2
    guard sorted.count % 2 == 0 else { return sorted[middle] }
    // Halved first: two stored times near the limits of Int64 do not overflow.
    let (a, b) = (sorted[middle - 1], sorted[middle])
    return a / 2 + b / 2 + (a % 2 + b % 2) / 2
  }

  /// Days with all three challenges answered, in a row, ending today or yesterday.
  static func streak(_ finished: [DailyRecord], today: Day) -> (length: Int, includesToday: Bool) {
    var counts: [Day: Int] = [:]
    for c in finished { counts[c.day, default: 0] += 1 }
    let complete = Set(counts.filter { $0.value >= Difficulty.allCases.count }.keys)
    return Streaks.ending(Array(complete), today: today)
  }

  static func streakLine(_ finished: [DailyRecord], today: Day) -> String {
    let (length, includesToday) = streak(finished, today: today)
    let days = Wording.count(length, "day")
    switch (length, includesToday) {
    case (0, _): return "Daily streak: none yet. Answer all three of today's challenges (daily) to start one."
    case (_, true): return "Daily streak: \(days) with all three challenges answered, today included."
    default: return "Daily streak: \(days) with all three challenges answered. Answer today's three to keep it going."
    }
  }

  /// One bar a day: how many of its challenges were right, and each one's result.
  static func chart(_ challenges: [DailyRecord], today: Day) -> [ChartBar] {
    Streaks.days(endingOn: today).map { day in
      let those = challenges.filter { $0.day == day }
      let marks = Difficulty.allCases.map { level -> String in
        guard let c = those.first(where: { $0.difficulty == level.rawValue }) else { return "·" }
        // Started and never answered: in progress today, not answered on an earlier day.
        return c.finished ? (c.correct ? "✓" : "✗") : (day == today ? "…" : "·")
      }
      let text = those.isEmpty ? "–" : zip(["E", "M", "H"], marks).map { "\($0)\($1)" }.joined(separator: " ")
      return ChartBar(
        label: day.shortLabel, value: those.filter { $0.finished && $0.correct }.count, text: text,
        scale: Difficulty.allCases.count)
    }
  }
}
