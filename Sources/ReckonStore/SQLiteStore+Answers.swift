import ReckonSession
import SQLite

/// Answers (a row each) and the learning state of each item a mode schedules (`factState`):
/// the SQL of `Answers`' requests, on tables of the core schema.
extension Answers.Record: SQLWrite {
  public typealias Tables = CoreTables

  public func run(in db: Database) throws(SQLiteError) -> FactState? {
    try SQLiteStore.ensureProfile(answer.profile, at: answer.answeredAt, in: db)
    try SQLiteStore.insert(answer, in: db)
    guard let learn else { return nil }
    let current = try db.first(
      "SELECT box, dueAt FROM factState WHERE profile = ? AND mode = ? AND item = ?", answer.profile, answer.mode,
      answer.item
    ) { (row) throws(SQLiteError) in FactState(box: try row[0], dueAt: try row[1]) }
    let next = learn(current)
    try db.run(
      """
      INSERT INTO factState (profile, mode, item, box, dueAt) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (profile, mode, item) DO UPDATE SET box = excluded.box, dueAt = excluded.dueAt
      """, answer.profile, answer.mode, answer.item, next.box, next.dueAt)
    return next
  }
}

extension Answers.SetBack: SQLWrite {
  public typealias Tables = CoreTables

  public func run(in db: Database) throws(SQLiteError) {
    try SQLiteStore.ensureProfile(profile, at: state.dueAt, in: db)
    try db.run(
      """
      INSERT INTO factState (profile, mode, item, box, dueAt, shown) VALUES (?, ?, ?, ?, ?, 1)
      ON CONFLICT (profile, mode, item) DO UPDATE SET box = excluded.box, dueAt = excluded.dueAt, shown = shown + 1
      """, profile, mode, item, state.box, state.dueAt)
  }
}

extension Answers.FactStates: SQLRead {
  public typealias Tables = CoreTables

  public func run(in db: Database) throws(SQLiteError) -> [String: FactState] {
    let rows = try db.all("SELECT item, box, dueAt FROM factState WHERE profile = ? AND mode = ?", profile, mode) {
      (row) throws(SQLiteError) in (try row[0] as String, FactState(box: try row[1], dueAt: try row[2]))
    }
    return Dictionary(rows, uniquingKeysWith: { $1 })
  }
}

extension Answers.Totals: SQLRead {
  public typealias Tables = CoreTables

  public func run(in db: Database) throws(SQLiteError) -> [String: ItemTotals] {
    let rows = try db.all(
      """
      SELECT item, SUM(answered) AS answered, SUM(right) AS right, SUM(milliseconds) AS milliseconds,
        SUM(shown) AS shown
      FROM (
        SELECT item, COUNT(*) AS answered, SUM(correct) AS right, SUM(milliseconds) AS milliseconds, 0 AS shown
        FROM answer WHERE profile = ? AND mode = ? GROUP BY item
        UNION ALL
        SELECT item, 0, 0, 0, shown FROM factState WHERE profile = ? AND mode = ? AND shown > 0
      ) GROUP BY item
      """, profile, mode, profile, mode
    ) { (row) throws(SQLiteError) in
      (
        try row[0] as String,
        ItemTotals(answered: try row[1], right: try row[2], milliseconds: try row[3], shown: try row[4])
      )
    }
    return Dictionary(rows, uniquingKeysWith: { $1 })
  }
}

extension Answers.Activity: SQLRead {
  public typealias Tables = CoreTables

  public func run(in db: Database) throws(SQLiteError) -> [DayActivity] {
    try db.all(
      """
      SELECT day, COUNT(*) AS answered, SUM(correct) AS right FROM answer
      WHERE profile = ? AND mode = ? AND day >= ? GROUP BY day ORDER BY day
      """, profile, mode, first.number
    ) { (row) throws(SQLiteError) in
      DayActivity(day: Day(number: try row[0]), answered: try row[1], right: try row[2])
    }
  }
}

extension Answers.PracticeDays: SQLRead {
  public typealias Tables = CoreTables

  public func run(in db: Database) throws(SQLiteError) -> [Day] {
    try db.all("SELECT DISTINCT day FROM answer WHERE profile = ? AND mode = ? ORDER BY day DESC", profile, mode) {
      (row) throws(SQLiteError) in Day(number: try row[0])
    }
  }
}

extension Answers.Groups: SQLRead {
  public typealias Tables = CoreTables

  public func run(in db: Database) throws(SQLiteError) -> [AnswerGroup] {
    try db.all(
      """
      SELECT difficulty, category, COUNT(*) AS answered, SUM(correct) AS right FROM answer
      WHERE profile = ? AND mode = ? AND difficulty IS NOT NULL AND category IS NOT NULL
      GROUP BY difficulty, category
      """, profile, mode
    ) { (row) throws(SQLiteError) in
      AnswerGroup(difficulty: try row[0], category: try row[1], answered: try row[2], right: try row[3])
    }
  }
}

extension SQLiteStore {
  static func insert(_ answer: AnswerRecord, in db: Database) throws(SQLiteError) {
    try db.run(
      """
      INSERT INTO answer (profile, mode, item, given, correct, milliseconds, answeredAt, day, category, difficulty)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """, answer.profile, answer.mode, answer.item, answer.given, answer.correct, answer.milliseconds,
      answer.answeredAt, answer.day.number, answer.category, answer.difficulty)
  }
}
