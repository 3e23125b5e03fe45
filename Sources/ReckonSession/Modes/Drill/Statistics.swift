import ReckonCore

/// `stats`: what the current profile's drilling adds up to, read from the store.
enum Statistics {
  /// The grid's tables and multipliers.
  static let gridRange = 2...12

  /// What the report is made from: one profile's drilling, read from the store at once.
  struct Snapshot: Sendable {
    var profile: String
    var today: Day
    var now: Int64
    var states: [String: FactState]
    var totals: [String: ItemTotals]
    /// Answers a day over the chart's days.
    var activity: [DayActivity]
    /// Every day practised, newest first.
    var days: [Day]
  }

  /// The report for the session's profile: a snapshot read from the store, then worked out.
  static func report(for state: SessionState) -> [Output] {
    guard let store = state.store else {
      return [.note("Progress is not being saved in this session, so there are no statistics.")]
    }
    do {
      return report(try snapshot(of: store, profile: state.profile, clock: state.clock))
    } catch {
      return [.warning("the statistics could not be read: \(error.message)")]
    }
  }

  /// Reads what the report needs.
  static func snapshot(of store: any Store, profile: String, clock: any Clock) throws(StoreError) -> Snapshot {
    let mode = DrillMode.storeMode
    let today = clock.today()
    return Snapshot(
      profile: profile, today: today, now: clock.nowMilliseconds(),
      states: try store.read(Answers.FactStates(profile: profile, mode: mode)),
      totals: try store.read(Answers.Totals(profile: profile, mode: mode)),
      activity: try store.read(
        Answers.Activity(profile: profile, mode: mode, from: today.advanced(by: 1 - Streaks.chartDays))),
      days: try store.read(Answers.PracticeDays(profile: profile, mode: mode)))
  }

  /// The report, worked out from a snapshot alone.
  static func report(_ snapshot: Snapshot) -> [Output] {
    let (profile, today, states, totals) = (snapshot.profile, snapshot.today, snapshot.states, snapshot.totals)
    // (What opening the store found, a damaged file say, comes first: `Session` adds it.)
    let answered = totals.values.reduce(0) { $0 + $1.answered }
    guard answered > 0 else {
      return [.note("No drill answers yet for \(profile). Start with: drill (stats quiz shows the quiz)")]
    }
    let right = totals.values.reduce(0) { $0 + $1.right }
    var outputs: [Output] = []
    let known = gridFacts.filter { Mastery(states[$0.item]) == .known }.count
    outputs.append(
      .note(
        "Progress for \(profile): \(Wording.count(answered, "answer")), \(Wording.percent(right, of: answered)) right; "
          + "\(known) of \(gridFacts.count) times-table facts known."))
    outputs.append(.note(streakLine(days: snapshot.days, today: today)))
    outputs.append(.grid(grid(states)))
    outputs.append(.note("Last \(Streaks.chartDays) days (answers a day, and how many were right):"))
    outputs.append(.chart(chart(snapshot.activity, today: today)))
    let due = states.values.filter { $0.dueAt <= snapshot.now }.count
    // The weakest facts worth naming: missed or shown at least once for every two right answers.
    let weakest = FactSelection.weakest(states, totals: totals, limit: .max).filter {
      FactRecord(totals[$0.item], states[$0.item]).isWorthNaming
    }.prefix(5)
    if !weakest.isEmpty {
      outputs.append(
        .note(
          "Weakest: "
            + weakest.map { fact in
              let t = totals[fact.item] ?? ItemTotals(answered: 0, right: 0, milliseconds: 0)
              var record = t.answered == 0 ? [] : ["\(t.right)/\(t.answered)"]
              if t.shown > 0 {
                record.append("shown " + (t.shown == 1 ? "once" : t.shown == 2 ? "twice" : "\(t.shown) times"))
              }
              return "\(fact.expression) (\(record.joined(separator: ", ")))"
            }.joined(separator: ", ")))
    }
    outputs.append(
      .note(
        due == 0
          ? "Nothing is due for review." : "\(due) \(due == 1 ? "fact is" : "facts are") due for review: drill review"))
    return outputs
  }

  /// Every × fact of the grid, row by row.
  static var gridFacts: [Fact] {
    gridRange.flatMap { table in gridRange.map { Fact(table, $0) } }
  }

  static func grid(_ states: [String: FactState]) -> LevelGrid {
    let range = Array(gridRange)
    let cells = range.map { table in
      range.map { operand in
        let fact = Fact(table, operand)
        return GridCell(level: Mastery(states[fact.item]).rawValue, text: String(fact.answer))
      }
    }
    return LevelGrid(
      corner: Fact.Operation.multiply.rawValue, rows: range, columns: range, cells: cells,
      levels: Mastery.allCases.map { LevelGrid.Level(symbol: $0.symbol, name: $0.name) })
  }

  static func chart(_ activity: [DayActivity], today: Day) -> [ChartBar] {
    let byDay = Dictionary(activity.map { ($0.day, $0) }, uniquingKeysWith: { a, _ in a })
    return Streaks.days(endingOn: today).map { day in
      let a = byDay[day] ?? DayActivity(day: day, answered: 0, right: 0)
      let text = a.answered == 0 ? "–" : "\(a.answered.grouped)  \(Wording.percent(a.right, of: a.answered))"
      return ChartBar(label: day.shortLabel, value: a.answered, text: text)
    }
  }

  static func streakLine(days: [Day], today: Day) -> String {
    let (length, includesToday) = Streaks.ending(days, today: today)
    switch (length, includesToday) {
    case (0, _): return "Streak: none yet. Practise today to start one."
    case (_, true): return "Streak: \(length) \(length == 1 ? "day" : "days"), today included."
    default: return "Streak: \(length) \(length == 1 ? "day" : "days"). Practise today to keep it going."
    }
  }
}

/// Which facts a `drill review` or `drill weak` round asks, and `stats` names, all ranked by
/// `FactRecord`'s rule of weakness.
enum FactSelection {
  /// The facts due for review at `now`, weakest first (then the longest overdue).
  static func due(_ states: [String: FactState], totals: [String: ItemTotals], now: Int64) -> [Fact] {
    let due = states.filter { $0.value.dueAt <= now }
    return ranked(due.keys, states: states, totals: totals).compactMap { Fact(item: $0) }
  }

  /// The facts known least: every fact with a record (an answer, a shown answer or a box),
  /// weakest first, at most `limit`.
  static func weakest(_ states: [String: FactState], totals: [String: ItemTotals], limit: Int) -> [Fact] {
    let items = Set(states.keys).union(totals.keys)
    return ranked(items, states: states, totals: totals).compactMap { Fact(item: $0) }.prefix(limit).map { $0 }
  }

  /// Items weakest first by the rule; then the longest overdue, then by name, so the order
  /// is always the same.
  static func ranked(
    _ items: some Collection<String>, states: [String: FactState], totals: [String: ItemTotals]
  ) -> [String] {
    let records = Dictionary(uniqueKeysWithValues: items.map { ($0, FactRecord(totals[$0], states[$0])) })
    return records.keys.sorted { a, b in
      let (ra, rb) = (records[a]!, records[b]!)
      if ra.isWeaker(than: rb) { return true }
      if rb.isWeaker(than: ra) { return false }
      let (da, db) = (states[a]?.dueAt ?? 0, states[b]?.dueAt ?? 0)
      return da != db ? da < db : a < b
    }
  }
}
