import ReckonSession
import SQLite

/// Profiles: every row of every other table names one, made by its first save.
extension SQLiteStore: ProfileStore {
  public func addProfile(_ name: String, at milliseconds: Int64) throws(StoreError) {
    try write { (db) throws(SQLiteError) in try SQLiteStore.ensureProfile(name, at: milliseconds, in: db) }
  }

  public func profiles() throws(StoreError) -> [ProfileSummary] {
    try read(ifNothingSaved: []) { (db) throws(SQLiteError) in
      try db.all(
        """
        SELECT p.name, COUNT(a.id) AS answers, MAX(a.day) AS lastDay
        FROM profile p LEFT JOIN answer a ON a.profile = p.name
        GROUP BY p.name ORDER BY p.name COLLATE NOCASE, p.name
        """
      ) { (row) throws(SQLiteError) in
        ProfileSummary(name: try row[0], answers: try row[1], lastDay: (try row[2] as Int?).map(Day.init(number:)))
      }
    }
  }

  static func ensureProfile(_ name: String, at milliseconds: Int64, in db: Database) throws(SQLiteError) {
    try db.run("INSERT INTO profile (name, createdAt) VALUES (?, ?) ON CONFLICT (name) DO NOTHING", name, milliseconds)
  }
}
