import ReckonSession
import SQLite

/// The bill's tables: a row a bill, keyed by its profile and the moment it started, and a row
/// a line typed in it, keyed by its number in the bill.
public enum BillTables: ModeTables {
  public static let name = "bill"
  public static let migrations: [Migrator.Migration] = [
    .init("v1: bills and their lines") { (db) throws(SQLiteError) in
      try db.execute(
        """
        CREATE TABLE "bill" ("profile" TEXT NOT NULL REFERENCES "profile"("name") ON DELETE CASCADE, \
        "startedAt" INTEGER NOT NULL, "day" INTEGER NOT NULL, "name" TEXT, "updatedAt" INTEGER NOT NULL, \
        PRIMARY KEY ("profile", "startedAt"));
        CREATE INDEX "bill_by_name" ON "bill"("profile", "name");
        CREATE TABLE "billLine" ("profile" TEXT NOT NULL, "startedAt" INTEGER NOT NULL, "number" INTEGER NOT NULL, \
        "text" TEXT NOT NULL, "entries" TEXT NOT NULL, "at" INTEGER NOT NULL, "undone" BOOLEAN NOT NULL DEFAULT 0, \
        PRIMARY KEY ("profile", "startedAt", "number"), \
        FOREIGN KEY ("profile", "startedAt") REFERENCES "bill"("profile", "startedAt") ON DELETE CASCADE);
        """)
    }
  ]
  public static let rowNames = [
    (table: "bill", one: "bill", many: "bills"), (table: "billLine", one: "line of a bill", many: "lines of bills"),
  ]
  /// A bill whose row was lost comes back from its lines: its start, the day of it (UTC), no
  /// name, and the time of its last line.
  public static let salvageRepairs = [
    """
    INSERT OR IGNORE INTO bill (profile, startedAt, day, name, updatedAt)
    SELECT profile, startedAt, startedAt / 86400000, NULL, max(at) FROM billLine
    WHERE NOT EXISTS (SELECT 1 FROM bill WHERE bill.profile = billLine.profile AND bill.startedAt = billLine.startedAt)
    GROUP BY profile, startedAt
    """
  ]
}

extension Bills.AddLine: SQLWrite {
  public typealias Tables = BillTables

  public func run(in db: Database) throws(SQLiteError) {
    try Tables.ensureProfile(profile, at: at, in: db)
    try db.run(
      """
      INSERT INTO bill (profile, startedAt, day, updatedAt) VALUES (?, ?, ?, ?)
      ON CONFLICT (profile, startedAt) DO UPDATE SET updatedAt = excluded.updatedAt
      """, profile, startedAt, day.number, at)
    try db.run(
      """
      INSERT INTO billLine (profile, startedAt, number, text, entries, at) VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (profile, startedAt, number) DO UPDATE SET text = excluded.text, entries = excluded.entries,
        at = excluded.at, undone = 0
      """, profile, startedAt, number, text, entries, at)
  }
}

extension Bills.Undo: SQLWrite {
  public typealias Tables = BillTables

  public func run(in db: Database) throws(SQLiteError) {
    try db.run(
      "UPDATE billLine SET undone = 1 WHERE profile = ? AND startedAt = ? AND number = ?", profile, startedAt, number)
    try db.run("UPDATE bill SET updatedAt = ? WHERE profile = ? AND startedAt = ?", at, profile, startedAt)
  }
}

extension Bills.Name: SQLWrite {
  public typealias Tables = BillTables

  public func run(in db: Database) throws(SQLiteError) {
    try db.run(
      "UPDATE bill SET name = NULL WHERE profile = ? AND name = ? AND startedAt != ?", profile, name, startedAt)
    try db.run(
      "UPDATE bill SET name = ?, updatedAt = ? WHERE profile = ? AND startedAt = ?", name, at, profile, startedAt)
  }
}

extension Bills.All: SQLRead {
  public typealias Tables = BillTables

  public func run(in db: Database) throws(SQLiteError) -> [Bills.Summary] {
    try db.all(
      """
      SELECT b.startedAt, b.day, b.name, b.updatedAt,
        (SELECT count(*) FROM billLine l WHERE l.profile = b.profile AND l.startedAt = b.startedAt AND NOT l.undone)
      FROM bill b WHERE b.profile = ? ORDER BY b.updatedAt DESC, b.startedAt DESC
      """, profile
    ) { (row) throws(SQLiteError) in
      Bills.Summary(
        startedAt: try row[0], day: Day(number: try row[1]), name: try row[2], updatedAt: try row[3], lines: try row[4])
    }
  }
}

extension Bills.Lines: SQLRead {
  public typealias Tables = BillTables

  public func run(in db: Database) throws(SQLiteError) -> [Bills.Line] {
    try db.all(
      """
      SELECT number, text, entries FROM billLine WHERE profile = ? AND startedAt = ? AND NOT undone ORDER BY number
      """, profile, startedAt
    ) { (row) throws(SQLiteError) in Bills.Line(number: try row[0], text: try row[1], entries: try row[2]) }
  }
}
