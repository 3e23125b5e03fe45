import ReckonSession
import ReckonStore
import SQLite

// The tally's SQL: its tables with their migrations, and how each of its requests runs. In
// Sources it would be ReckonStore/Modes/Tally.swift, with `TallyTables.self` a line of
// `RegisteredTables.all`; a test registers it with the store it opens instead.

enum TallyTables: ModeTables {
  static let name = "tally"
  static let migrations: [Migrator.Migration] = [
    .init("v1: counts") { (db) throws(SQLiteError) in
      try db.execute(
        """
        CREATE TABLE "tally" ("profile" TEXT NOT NULL REFERENCES "profile"("name") ON DELETE CASCADE, \
        "word" TEXT NOT NULL, "count" INTEGER NOT NULL, PRIMARY KEY ("profile", "word"))
        """)
    },
    // A second migration, as a mode's tables grow: when each word was last counted, and an
    // index for the most counted.
    .init("v2: when last counted") { (db) throws(SQLiteError) in
      try db.execute(
        #"""
        ALTER TABLE "tally" ADD COLUMN "lastAt" INTEGER NOT NULL DEFAULT 0;
        CREATE INDEX "tally_by_count" ON "tally"("profile", "count");
        """#)
    },
  ]
  static let rowNames = [(table: "tally", one: "tally", many: "tallies")]
}

extension TallyRequests.Add: SQLWrite {
  typealias Tables = TallyTables

  func run(in db: Database) throws(SQLiteError) -> Int {
    try TallyTables.ensureProfile(profile, at: at, in: db)
    try db.run(
      """
      INSERT INTO tally (profile, word, count, lastAt) VALUES (?, ?, max(?, 0), ?)
      ON CONFLICT (profile, word) DO UPDATE SET count = max(count + ?, 0), lastAt = excluded.lastAt
      """, profile, word, by, at, by)
    return try db.value("SELECT count FROM tally WHERE profile = ? AND word = ?", profile, word) ?? 0
  }
}

extension TallyRequests.Counts: SQLRead {
  typealias Tables = TallyTables

  func run(in db: Database) throws(SQLiteError) -> [TallyRequests.WordCount] {
    try db.all("SELECT word, count, lastAt FROM tally WHERE profile = ? ORDER BY count DESC, word", profile) {
      (row) throws(SQLiteError) in
      TallyRequests.WordCount(word: try row[0], count: try row[1], lastAt: try row[2])
    }
  }
}
