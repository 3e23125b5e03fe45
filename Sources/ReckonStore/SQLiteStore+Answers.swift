import ReckonSession
import SQLite

/// Answers (a row each) and the learning state of each item a mode schedules (`factState`).
extension SQLiteStore: AnswerStore {
  @discardableResult
  public func record(_ answer: AnswerRecord, learn: (@Sendable (FactState?) -> FactState)?) throws(StoreError)
    -> FactState?
  {
    try write { (db) throws(SQLiteError) -> FactState? in
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

  public func setBack(item: String, profile: String, mode: String, to learning: FactState) throws(StoreError) {
    try write { (db) throws(SQLiteError) in
      try SQLiteStore.ensureProfile(profile, at: learning.dueAt, in: db)
      try db.run(
        """
        INSERT INTO factState (profile, mode, item, box, dueAt, shown) VALUES (?, ?, ?, ?, ?, 1)
        ON CONFLICT (profile, mode, item) DO UPDATE SET box = excluded.box, dueAt = excluded.dueAt, shown = shown + 1
        """, profile, mode, item, learning.box, learning.dueAt)
    }
  }

  public func factStates(profile: String, mode: String) throws(StoreError) -> [String: FactState] {
    try read(ifNothingSaved: [:]) { (db) throws(SQLiteError) in
      let rows = try db.all("SELECT item, box, dueAt FROM factState WHERE profile = ? AND mode = ?", profile, mode) {
        (row) throws(SQLiteError) in (try row[0] as String, FactState(box: try row[1], dueAt: try row[2]))
      }
      return Dictionary(rows, uniquingKeysWith: { $1 })
    }
  }

  public func itemTotals(profile: String, mode: String) throws(StoreError) -> [String: ItemTotals] {
    try read(ifNothingSaved: [:]) { (db) throws(SQLiteError) in
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

  public func activity(profile: String, mode: String, from first: Day) throws(StoreError) -> [DayActivity] {
    try read(ifNothingSaved: []) { (db) throws(SQLiteError) in
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

  public func practiceDays(profile: String, mode: String) throws(StoreError) -> [Day] {
    try read(ifNothingSaved: []) { (db) throws(SQLiteError) in
      try db.all("SELECT DISTINCT day FROM answer WHERE profile = ? AND mode = ? ORDER BY day DESC", profile, mode) {
        (row) throws(SQLiteError) in Day(number: try row[0])
      }
    }
  }

  public func answerGroups(profile: String, mode: String) throws(StoreError) -> [AnswerGroup] {
    try read(ifNothingSaved: []) { (db) throws(SQLiteError) in
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

  static func insert(_ answer: AnswerRecord, in db: Database) throws(SQLiteError) {
    try db.run(
      """
      INSERT INTO answer (profile, mode, item, given, correct, milliseconds, answeredAt, day, category, difficulty)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """, answer.profile, answer.mode, answer.item, answer.given, answer.correct, answer.milliseconds,
      answer.answeredAt, answer.day.number, answer.category, answer.difficulty)
  }
}
