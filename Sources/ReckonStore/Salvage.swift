import Glibc
import ReckonSession
import SQLite

extension SQLiteStore {
  /// Copies every row that can be read from the damaged database at `path` into a fresh one
  /// (with the schema of today, through a temporary file beside it), then moves the damaged
  /// one aside (with its -wal and -shm) and puts the fresh one in its place. Returns how
  /// many rows were copied and where the damaged file went; nil if the salvage could not be
  /// made (nothing moved then).
  ///
  /// SQLite reads a table in rowid order; a page that cannot be read makes a read of the rows
  /// on it fail. So rows are copied in batches by rowid, a batch that fails is tried again a
  /// row at a time, and a row that cannot be read is passed over by seeking further and
  /// further past it until a readable row is found. The damaged database is read through
  /// `ATTACH` on the fresh one, so the values are copied by SQLite as they are.
  static func salvage(_ path: String) -> (rows: Int, aside: String)? {
    // Hold the damaged file's write lock from the copy to the move: another Reckon's write
    // waits, then finds the file moved (its connection checks, holding the lock) and makes
    // it in the fresh file instead of the one moved aside. A file too damaged to lock is
    // salvaged all the same.
    let locker = try? Database(path, flags: .readWrite)
    try? locker?.keepWALFilesOnClose()
    locker?.setBusyTimeout(milliseconds: 10_000)
    let locked = (try? locker?.execute("BEGIN IMMEDIATE")) != nil
    defer { if locked { try? locker?.execute("ROLLBACK") } }
    let temporary = path + ".salvage-\(getpid())"
    for suffix in ["", "-journal", "-wal", "-shm"] { unlink(temporary + suffix) }
    guard let rows = copyReadable(from: path, into: temporary) else {
      for suffix in ["", "-journal"] { unlink(temporary + suffix) }
      return nil
    }
    guard let aside = try? moveAside(path, toAFreeNameFrom: path + ".corrupt-" + timestamp(time(nil))) else {
      unlink(temporary)
      return nil
    }
    guard rename(temporary, path) == 0 else {
      // Put the damaged one back rather than leave nothing there.
      for suffix in ["", "-wal", "-shm"] where access(aside + suffix, F_OK) == 0 {
        _ = rename(aside + suffix, path + suffix)
      }
      unlink(temporary)
      return nil
    }
    return (rows, aside)
  }

  /// The rows of `damaged` that can be read, copied into a new database at `fresh`; their
  /// count, or nil if the fresh database could not be made. Closed when this returns.
  static func copyReadable(from damaged: String, into fresh: String) -> Int? {
    do throws(FileProblem) {
      try createPrivateFile(fresh)
    } catch {
      return nil
    }
    do throws(SQLiteError) {
      let db = try Database(fresh)
      try Schema.migrator.migrate(db)
      try db.run("ATTACH DATABASE ? AS damaged", damaged)
      let tables = try db.all(
        "SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
      ) { (row) throws(SQLiteError) in try row[0] as String }
      var copied = 0
      for table in tables {
        let ours = try columns(of: table, in: "main", db)
        // A table the damaged file cannot describe is left out; columns it lacks take their
        // defaults.
        guard let theirs = try? columns(of: table, in: "damaged", db) else { continue }
        let shared = ours.filter(theirs.contains)
        guard !shared.isEmpty else { continue }
        copied += copyRows(of: table, columns: shared, db)
      }
      // Every row names a profile: one whose row was lost comes back, created at 0.
      for table in tables where try columns(of: table, in: "main", db).contains("profile") {
        try db.execute(
          "INSERT OR IGNORE INTO main.profile (name, createdAt) SELECT DISTINCT profile, 0 FROM main.\"\(table)\"")
      }
      try db.execute("DETACH DATABASE damaged")
      return copied
    } catch {
      return nil
    }
  }

  static func columns(of table: String, in schema: String, _ db: Database) throws(SQLiteError) -> [String] {
    try db.all("SELECT name FROM pragma_table_info(?, ?)", table, schema) { (row) throws(SQLiteError) in
      try row[0] as String
    }
  }

  /// Copies `table`'s rows that can be read, in rowid order; how many.
  static func copyRows(of table: String, columns: [String], _ db: Database) -> Int {
    let list = columns.map { "\"\($0)\"" }.joined(separator: ", ")
    let source = "FROM damaged.\"\(table)\" WHERE rowid > ? ORDER BY rowid LIMIT ?"
    let insert = "INSERT OR IGNORE INTO main.\"\(table)\" (rowid, \(list)) SELECT rowid, \(list) \(source)"
    let last = "SELECT max(rowid) FROM (SELECT rowid \(source))"
    var after = Int64.min
    var batch: Int64 = 500
    var copied = 0
    for _ in 0..<10_000_000 {
      do throws(SQLiteError) {
        // Where this batch ends first: if it cannot be found, the batch cannot be read.
        guard let end = try db.value(last, after, batch) as Int64? else { return copied }
        try db.run(insert, after, batch)
        copied += db.changes
        after = end
        batch = 500
      } catch {
        guard isCorruption(error) else { return copied }
        if batch > 1 {
          batch = 1
          continue
        }
        // The row after `after` cannot be read: seek further and further past it.
        guard let next = nextReadable(table, after: after, db) else { return copied }
        after = next - 1
      }
    }
    return copied
  }

  /// The rowid of the first row that can be read some way past `after`, or nil when none can.
  static func nextReadable(_ table: String, after: Int64, _ db: Database) -> Int64? {
    var step: Int64 = 1
    while step < Int64.max / 4 {
      let (from, overflow) = after.addingReportingOverflow(step)
      if overflow { return nil }
      do throws(SQLiteError) {
        let found =
          try db.value(
            "SELECT rowid FROM damaged.\"\(table)\" WHERE rowid > ? ORDER BY rowid LIMIT 1", from) as Int64?
        return found
      } catch {
        guard isCorruption(error) else { return nil }
      }
      step *= 2
    }
    return nil
  }
}
