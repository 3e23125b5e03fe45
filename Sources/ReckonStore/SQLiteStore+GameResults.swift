import ReckonSession
import SQLite

/// Games' rounds: a row each, the game's own part as JSON text in `data` (the SQL of
/// `GameResults`' requests, on a table of the core schema).
extension GameResults.Save: SQLWrite {
  public typealias Tables = CoreTables

  public func run(in db: Database) throws(SQLiteError) {
    try SQLiteStore.ensureProfile(result.profile, at: result.startedAt, in: db)
    try db.run(
      """
      UPDATE gameResult SET day = ?, finished = ?, score = ?, data = ?
      WHERE profile = ? AND game = ? AND startedAt = ?
      """, result.day.number, result.finished, result.score, result.data, result.profile, result.game,
      result.startedAt)
    guard db.changes == 0 else { return }
    try GameResults.Add(result).run(in: db)
  }
}

extension GameResults.Add: SQLWrite {
  public typealias Tables = CoreTables

  public func run(in db: Database) throws(SQLiteError) {
    try SQLiteStore.ensureProfile(result.profile, at: result.startedAt, in: db)
    try db.run(
      """
      INSERT INTO gameResult (profile, game, startedAt, day, finished, score, data) VALUES (?, ?, ?, ?, ?, ?, ?)
      """, result.profile, result.game, result.startedAt, result.day.number, result.finished, result.score,
      result.data)
  }
}

extension GameResults.All: SQLRead {
  public typealias Tables = CoreTables

  public func run(in db: Database) throws(SQLiteError) -> [GameResult] {
    try db.all(
      """
      SELECT profile, game, startedAt, day, finished, score, data FROM gameResult
      WHERE profile = ? AND game = ? ORDER BY startedAt, id
      """, profile, game
    ) { (row) throws(SQLiteError) in
      GameResult(
        profile: try row[0], game: try row[1], startedAt: try row[2], day: Day(number: try row[3]),
        finished: try row[4], score: try row[5], data: try row[6])
    }
  }
}
