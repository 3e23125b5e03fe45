import ReckonSession
import SQLite

/// The trivia modes' daily challenges: a row per profile, day and difficulty (the SQL of
/// `DailyChallenges`' requests, on a table of the core schema). A challenge's answer goes
/// into the answers with it, in one transaction.
extension DailyChallenges.Days: SQLRead {
  public typealias Tables = CoreTables

  public func run(in db: Database) throws(SQLiteError) -> [DailyRecord] {
    try db.all(
      """
      SELECT \(DailyChallenges.columns) FROM daily WHERE profile = ? AND day BETWEEN ? AND ? ORDER BY day,
        CASE difficulty WHEN 'easy' THEN 0 WHEN 'medium' THEN 1 ELSE 2 END
      """, profile, first.number, last.number, row: DailyChallenges.record)
  }
}

extension DailyChallenges.Save: SQLWrite {
  public typealias Tables = CoreTables

  public func run(in db: Database) throws(SQLiteError) -> DailyRecord {
    try SQLiteStore.ensureProfile(challenge.profile, at: challenge.updatedAt, in: db)
    if let saved = try db.first(
      "SELECT \(DailyChallenges.columns) FROM daily WHERE profile = ? AND day = ? AND difficulty = ?",
      challenge.profile, challenge.day.number, challenge.difficulty, row: DailyChallenges.record), saved.finished
    {
      return saved
    }
    try db.run(
      """
      INSERT INTO daily (profile, day, difficulty, item, elapsed, finished, correct, given, updatedAt)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (profile, day, difficulty) DO UPDATE SET item = excluded.item, elapsed = excluded.elapsed,
        finished = excluded.finished, correct = excluded.correct, given = excluded.given,
        updatedAt = excluded.updatedAt
      """, challenge.profile, challenge.day.number, challenge.difficulty, challenge.item,
      challenge.elapsedMilliseconds, challenge.finished, challenge.correct, challenge.given, challenge.updatedAt)
    if let answer { try SQLiteStore.insert(answer, in: db) }
    return challenge
  }
}

extension DailyChallenges {
  static let columns = "profile, day, difficulty, item, elapsed, finished, correct, given, updatedAt"

  static func record(_ row: Row) throws(SQLiteError) -> DailyRecord {
    DailyRecord(
      profile: try row[0], day: Day(number: try row[1]), difficulty: try row[2], item: try row[3],
      elapsedMilliseconds: try row[4], finished: try row[5], correct: try row[6], given: try row[7],
      updatedAt: try row[8])
  }
}
