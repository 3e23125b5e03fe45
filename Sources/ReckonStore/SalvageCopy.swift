import Glibc
import ReckonCore
import ReckonSession
import SQLite

/// Why a salvage did not copy everything: stopped (Ctrl-C, or its work spent), or it could not
/// be made (the fresh file could not be written, the file was busy).
enum SalvageProblem: Error {
  case stopped(SalvageLimits.Stop)
  case failed(String)
}

/// What the copy of a damaged database into a fresh one kept and lost, table by table.
struct SalvageCopy {
  struct Table: Equatable {
    /// The table's name in the fresh file (today's schema).
    var name: String
    var kept = 0
    /// Rows known to have been there (an index names them) and not kept.
    var lost = 0
    /// Whether `lost` counts every row lost: the table had no gap, or an index of it could be
    /// read whole. Otherwise more may have been lost than counted.
    var lostIsExact = true
    /// Rows left out because they name a profile there is none of (bytes of the name damaged).
    var garbled = 0
  }

  var tables: [Table]
  /// Why the copy stopped before the end (Ctrl-C, or its work spent): what was read so far is
  /// in the fresh file, and some rows were not looked at. Nil when it went to the end.
  var stoppedEarly: SalvageLimits.Stop?
  /// How many pages the damaged file has, and how many units of work the copy took.
  var pages = 0
  var work = 0
}

/// One table being copied: its columns and indexes in the fresh file, and what could not be
/// read.
struct TableCopy {
  var name: String
  var columns: [SalvageColumn]
  /// Each index of the table: the places of its columns in `columns`.
  var indexes: [[Int]] = []
  /// The rowids SQLite could not read, and those under a page the page reader found damaged.
  /// Signs that rows may be missing, which are then counted.
  var gaps: [RowidGap] = []
  /// Whether anything was amiss: a gap, a damaged page, a row that did not hold together or
  /// did not fit the columns, a row SQLite read that the pages did not give. Then what was
  /// lost is counted.
  var damaged = false
  var lost = 0
  var lostIsExact = true
  /// The statement that inserts a row of the first N columns (the rowid first), by N - 1: a
  /// row read from a page has as many values as its table had columns when it was written.
  let inserts: [String]

  init(name: String, columns: [SalvageColumn], indexes: [[Int]] = []) {
    self.name = name
    self.columns = columns
    self.indexes = indexes
    var inserts: [String] = []
    var names = ["rowid"]
    for column in columns {
      if !column.isRowid { names.append(SQLiteStore.quoted(column.name)) }
      let marks = [String](repeating: "?", count: names.count).joined(separator: ", ")
      inserts.append(
        "INSERT OR IGNORE INTO main.\(SQLiteStore.quoted(name)) (\(names.joined(separator: ", "))) VALUES (\(marks))")
    }
    self.inserts = inserts
  }
}

extension SQLiteStore {
  /// Copies what can be read of the damaged database at `damaged` into a new one at `fresh`
  /// (an empty file), which is then closed.
  ///
  /// The fresh file is made at the damaged one's version, so that each of its tables has one
  /// to go into (a file from before v6 keeps its personality results in a table of their
  /// own), and migrated to today's once the rows are in. Every table is read twice over: from
  /// the file's pages first (`copyPages`: every row on a leaf of the table's own b-tree, or on
  /// a leaf no tree reaches that the rows show is the table's, `SalvageOwners`), then through
  /// SQLite (`copyRows`: every row SQLite can read, in rowid order, passing over what it
  /// cannot) for what the pages did not give; then what was lost is counted from the indexes.
  /// SQLite reads the file only when its header can be trusted (`DatabaseFile.headerIsTrusted`:
  /// under a damaged page size it reads every page from the wrong place). The damaged file is
  /// read on a connection of its own, read-only, and the rows go into the fresh one in one
  /// transaction (a connection that has met the damage may not commit). Everything runs under
  /// `limits`, a budget of work: SQLite's statements through its progress handler, the page
  /// reader page by page. Stopped (Ctrl-C, or the work spent), what was copied is kept
  /// (`stoppedEarly`).
  static func copyReadable(
    from damaged: String, into fresh: String, limits: SalvageLimits,
    tables modes: [any ModeTables.Type] = RegisteredTables.all
  ) -> Result<SalvageCopy, SalvageProblem> {
    do throws(SalvageProblem) {
      return .success(try copy(from: damaged, into: fresh, limits: limits, modes: modes))
    } catch {
      return .failure(error)
    }
  }

  private static func copy(
    from damaged: String, into fresh: String, limits: SalvageLimits, modes: [any ModeTables.Type]
  ) throws(SalvageProblem) -> SalvageCopy {
    let file = DatabaseFile(path: damaged, stop: { limits.stop != nil })
    var size = stat()
    let pageCount = file?.pageCount ?? (stat(damaged, &size) == 0 ? Int(size.st_size) / 4096 + 1 : 1)
    limits.start(pages: pageCount, path: damaged)
    // The damaged file, read-only, when SQLite reads it as it is. `writable_schema` makes
    // SQLite read the tables it can when part of the schema is damaged, as sqlite3's .dump
    // does (nothing can be written on this connection all the same).
    let source =
      file?.headerIsTrusted == false
      ? nil : try? Database(fileURI(damaged, query: "mode=ro"), flags: [.readOnly, .uri])
    source?.setProgressHandler {
      limits.spend()
      return limits.stop != nil
    }
    source?.setBusyTimeout(milliseconds: 2000)
    try? source?.execute("PRAGMA writable_schema = ON")
    // The schema as SQLite reads it, if it can (then each table SQLite knows is read through
    // it, and one it lacks, a newer table in an older file, has nothing to copy); else as
    // the page reader reads it.
    // (With `writable_schema`, SQLite reads whatever lies where the schema's pages were: a
    // schema leaf overwritten by another table's page gives that table's rows as schema rows.
    // Only rows that are schema rows are taken; where there were others, the schema is damaged
    // and every table's pages are looked at for what SQLite cannot find.)
    let readSchema = source.flatMap(sqlSchemaRows)
    let sqlSchema = readSchema.map { $0.compactMap { $0 } }
    let sqlSchemaWhole = readSchema.map { !$0.contains { $0 == nil } } ?? false
    limits.begin(.pages, total: 4 * pageCount)
    var pages = file.map { PageSalvage(file: $0, limits: limits) }
    pages?.census()
    let ownSchema = pages?.schema() ?? []  // (walks the schema's own pages too)
    var userVersion = file?.userVersion
    if let source, let found = try? Schema.migrator.version(of: source) { userVersion = found }
    let schema = sqlSchema ?? ownSchema
    let version = Schema.version(of: schema, userVersion: userVersion)
    try limits.check()
    let db: Database
    var copies: [TableCopy] = []
    var modeNames = Set(modes.map { $0.name } + [CoreTables.name])
    do throws(SQLiteError) {
      db = try Database(fresh, flags: [.readWrite, .create, .uri])
      // Nothing of this file matters until it is complete and moved into place: no journal
      // on disk, no waiting for the disk.
      try db.execute("PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF")
      try Schema.migrator.migrate(db, upTo: version)
      // Each mode's tables at the damaged file's version of them, when it can be read (else
      // today's); the bookkeeping of versions is the fresh file's own, not copied.
      // A version that reads as 0 (none, or its row lost to the damage) is taken as today's.
      let modeVersions = source.flatMap { try? ModeTablesMigrator.versions(modes, in: $0) }
      try ModeTablesMigrator.migrate(db, modes, upTo: modeVersions?.map { $0 > 0 ? $0 : Int32.max })
      var tables = try freshTables(db)
      // The tables of modes this Reckon does not know (a newer one's file), as their CREATE
      // statements say, with their indexes and versions: a salvage keeps their rows too. Not
      // one whose name is one of ours with a byte damaged (`billLi\u{3}e`), or whose columns
      // are one of ours: its rows go to ours, by what they hold.
      let known = ModeTablesMigrator.tableNames(of: modes)
      var shapes: [[String]] = []
      for table in tables { shapes.append(try columnShape(of: table, in: "main", db)) }
      for row in schema
      where row.type == "table" && !tables.contains(row.name) && !row.name.hasPrefix("sqlite_")
        && row.name != "modeTables" && !known.contains(row.name) && !Schema.mergedIntoGameResults(row.name)
        && row.sql.hasPrefix("CREATE TABLE ")
        && !(tables + ["modeTables"]).contains(where: { Suggestions.distance($0, row.name, atMost: 1) != nil })
      {
        guard (try? db.execute(row.sql)) != nil else { continue }
        if let shape = try? columnShape(of: row.name, in: "main", db), shapes.contains(shape) {
          try db.execute("DROP TABLE main.\(quoted(row.name))")
          continue
        }
        for index in schema where index.type == "index" && index.table == row.name && !index.sql.isEmpty {
          try? db.execute(index.sql)
        }
      }
      if let source,
        let versions = try? source.all(
          "SELECT name, version FROM modeTables",
          row: { (row) throws(SQLiteError) in
            (try row[0] as String, try row[1] as Int64)
          })
      {
        for (name, version) in versions where version > 0 {
          modeNames.insert(name)
          guard !modes.contains(where: { $0.name == name }) else { continue }
          try db.execute(ModeTablesMigrator.bookkeeping)
          try db.run("INSERT OR IGNORE INTO modeTables (name, version) VALUES (?, ?)", name, version)
        }
      }
      tables = try freshTables(db)
      for table in tables where table != "modeTables" {
        let columns = try salvageColumns(of: table, db)
        copies.append(TableCopy(name: table, columns: columns, indexes: try indexColumns(of: table, columns, db)))
      }
      // The small tables first, the modes' own next, the answers (the bulk) last: stopped
      // part-way, what is left is answers, not the settings, profiles, a mode's rows or
      // learning boxes.
      let first = ["profile", "setting", "daily", "gameResult", "personality", "anagramRound"]
      let last = ["factState", "answer"]
      copies =
        first.compactMap { name in copies.first { $0.name == name } }
        + copies.filter { !first.contains($0.name) && !last.contains($0.name) }
        + last.compactMap { name in copies.first { $0.name == name } }
      // (No progress handler here: a statement it stopped would roll back every row copied.
      // Each write is one row; the reads of the damaged file are what is bounded.)
      try db.execute("BEGIN")
    } catch {
      throw salvageProblem(error, limits) ?? .failed(error.description)
    }
    var stoppedEarly: SalvageLimits.Stop?
    do throws(SalvageProblem) {
      // 1. From the pages: each table's rows from its own leaves.
      if var found = pages {
        try copyPages(
          &found, &copies, schema: schema, sqlReadSchema: sqlSchemaWhole, modeNames: modeNames,
          fileIsTrusted: file?.headerIsValid ?? false, db, limits)
        pages = found
      } else {
        for index in copies.indices { copies[index].damaged = true }
      }
      // 2. Through SQLite: what the pages did not give (never a row the pages found to be
      // another table's: SQLite follows a damaged pointer into another table's leaf).
      limits.begin(.tables, total: copies.count)
      for index in copies.indices {
        limits.spend(0)
        guard let source, let sqlSchema else {
          // SQLite cannot read the schema: every row is the page reader's to find.
          copies[index].gaps = [RowidGap(after: Int64.min, before: nil)]
          continue
        }
        // A table whose tree the pages read whole (no damaged page, no cell that did not hold
        // together, no leaf of another's): SQLite would read the same rows.
        guard copies[index].damaged || pages == nil else { continue }
        guard sqlSchema.contains(where: { $0.type == "table" && $0.name == copies[index].name }) else {
          // A table of ours SQLite cannot find by its name (damaged in the schema, say): the
          // page reader looked for it.
          copies[index].damaged = true
          continue
        }
        // The columns both have, but the rowid's own (the rowid is copied as such); when
        // SQLite cannot say (a schema damaged elsewhere), those of the fresh table, which is
        // made at the damaged file's version.
        let ours = copies[index].columns.map(\.name)
        let theirs = (try? columnNames(of: copies[index].name, in: "main", source)).flatMap { $0.isEmpty ? nil : $0 }
        // A column whose name is damaged in the schema (`mode` read as `modV`) is read by its
        // place: the fresh table is made at the damaged file's version, so its columns are the
        // same, in the same order, and a name only one side has, at one place, is that column.
        var readAs: [String: String] = [:]
        if let theirs, theirs.count == ours.count {
          for (mine, other) in zip(ours, theirs) where mine != other && !theirs.contains(mine) && !ours.contains(other)
          {
            readAs[mine] = other
          }
        }
        let shared = copies[index].columns.filter {
          !$0.isRowid && (Set(theirs ?? ours).contains($0.name) || readAs[$0.name] != nil)
        }
        guard !shared.isEmpty else { continue }
        let before = try count(copies[index].name, db, limits)
        let (gaps, rejected) = try copyRows(
          of: copies[index].name, columns: shared, readAs: readAs, from: source, into: db, limits
        ) { rowid, values in
          // A row the pages gave to another table is that table's.
          !isAnotherTables(rowid, values, columns: shared, of: copies[index], among: copies, db)
        }
        copies[index].gaps += gaps
        let after = try count(copies[index].name, db, limits)
        if !gaps.isEmpty || rejected > 0 || after != before {
          copies[index].damaged = true
        }
      }
      // 3. What was lost: the rowids an index names with no row kept.
      if var found = pages {
        try countLost(&found, &copies, schema: schema, db, limits)
      } else {
        for index in copies.indices { copies[index].lostIsExact = false }
      }
    } catch .stopped(let why) {
      stoppedEarly = why
    } catch {
      throw error
    }
    // Finishing (the fresh file's migrations, its rows' parents, the counts): work bounded by
    // what was copied, and not stopped by a Ctrl-C that stopped the copy (what was copied is
    // kept).
    limits.begin(.finishing, total: 1)
    do throws(SQLiteError) {
      try db.execute("COMMIT")
      try Schema.migrator.migrate(db)
      try ModeTablesMigrator.migrate(db, modes)
      let garbled = try keepRowsWithParents(db, modes: modes)
      let tables = try freshTables(db)
      var report: [SalvageCopy.Table] = []
      for table in tables where table != "modeTables" {
        var entry = SalvageCopy.Table(name: table)
        entry.kept = try db.value("SELECT count(*) FROM main.\(quoted(table))") ?? 0
        entry.garbled = garbled[table] ?? 0
        // The tables v6 merged into the game results count as game results.
        for copy in copies
        where copy.name == table || (table == "gameResult" && Schema.mergedIntoGameResults(copy.name)) {
          entry.lost += copy.lost
          entry.lostIsExact = entry.lostIsExact && copy.lostIsExact
        }
        report.append(entry)
      }
      limits.end()
      return SalvageCopy(tables: report, stoppedEarly: stoppedEarly, pages: pageCount, work: limits.spent)
    } catch {
      throw salvageProblem(error, limits) ?? .failed(error.description)
    }
  }

  /// The schema as SQLite reads it (each row nil where it is not a schema row); nil when not a
  /// row can be read. A row's SQL is read on its own: one that runs onto a damaged overflow
  /// page fails alone, and the row is kept without it, as are the rows read before a damaged
  /// page ends the scan.
  static func sqlSchemaRows(_ source: Database) -> [PageSalvage.SchemaRow?]? {
    guard let statement = try? source.prepare("SELECT rowid, type, name, tbl_name, rootpage FROM sqlite_master")
    else { return nil }
    var found: [(Int64, [DatabaseValue])] = []
    do throws(SQLiteError) {
      try statement.forEachRow { (row) throws(SQLiteError) -> Bool in
        found.append((try row[0], [try row[1], try row[2], try row[3], try row[4]]))
        return true
      }
    } catch {
      guard !found.isEmpty else { return nil }
    }
    return found.map { rowid, values in
      let sql = (try? source.value("SELECT sql FROM sqlite_master WHERE rowid = ?", rowid, as: DatabaseValue.self))
      return PageSalvage.schemaRow(values + [sql.flatMap { $0 } ?? .null], pageCount: Int.max)
    }
  }

  /// Every row names a profile, and some a row of another table (a bill's lines their bill):
  /// a row whose parent was lost makes it again where its mode says how
  /// (`ModeTables.salvageRepairs`), and a profile comes back, created at 0, when the name is
  /// one a profile can have (letters, digits, `-`, `_`, `.`) and more than one row names it.
  /// Otherwise a row that names a profile there is none of had a byte of its name damaged (or
  /// was its profile's only row). A row still without its parent is left out, and so is a
  /// profile that no row names whose name no profile can have (its own bytes damaged); how many,
  /// by table.
  static func keepRowsWithParents(_ db: Database, modes: [any ModeTables.Type]) throws(SQLiteError) -> [String: Int] {
    for repair in modes.flatMap({ $0.salvageRepairs }) { try db.execute(repair) }
    let tables = try freshTables(db)
    // The names rows give as their profile that no profile has, and how many rows give each.
    var named: [[UInt8]: Int] = [:]
    for table in tables where table != "profile" {
      guard try columnNames(of: table, in: "main", db).contains("profile") else { continue }
      let names = try db.all(
        """
        SELECT profile, count(*) FROM main.\(quoted(table))
        WHERE profile NOT IN (SELECT name FROM main.profile) GROUP BY profile
        """
      ) { (row) throws(SQLiteError) in (try row[0] as DatabaseValue, try row[1] as Int) }
      for case (.text(let bytes), let count) in names { named[bytes, default: 0] += count }
    }
    // A name a profile can have comes back where more than one row gives it (the profile's
    // row was lost, or had a byte of its name damaged): a name one row gives is that row's
    // name damaged, as a byte damaged in a row is in one row.
    for (bytes, count) in named where count > 1 {
      let name = String(decoding: bytes, as: UTF8.self)
      guard Array(name.utf8) == bytes, Profiles.problem(with: name) == nil else { continue }
      try db.run("INSERT OR IGNORE INTO main.profile (name, createdAt) VALUES (?, 0)", name)
    }
    // A profile no row names whose name no profile can have is its own row, damaged.
    let unnamed = try db.all("SELECT rowid, name FROM main.profile") { (row) throws(SQLiteError) in
      (try row[0] as Int64, try row[1] as DatabaseValue)
    }
    var garbledProfiles = 0
    for (rowid, name) in unnamed {
      if case .text(let bytes) = name, String(decoding: bytes, as: UTF8.self).utf8.elementsEqual(bytes),
        Profiles.problem(with: String(decoding: bytes, as: UTF8.self)) == nil
      {
        continue
      }
      var used = false
      for table in tables where table != "profile" {
        guard try columnNames(of: table, in: "main", db).contains("profile") else { continue }
        if try db.value("SELECT 1 FROM main.\(quoted(table)) WHERE profile = ? LIMIT 1", name, as: Int.self) != nil {
          used = true
          break
        }
      }
      guard !used else { continue }
      try db.run("DELETE FROM main.profile WHERE rowid = ?", rowid)
      garbledProfiles += db.changes
    }
    // What is still without its parent, until nothing is (a row left out may be a parent).
    var garbled: [String: Int] = garbledProfiles > 0 ? ["profile": garbledProfiles] : [:]
    while true {
      let orphans = try db.all("SELECT \"table\", rowid FROM pragma_foreign_key_check") {
        (row) throws(SQLiteError) in (try row[0] as String, try row[1] as Int64?)
      }
      var removed = 0
      for case (let table, let rowid?) in orphans {
        try db.run("DELETE FROM main.\(quoted(table)) WHERE rowid = ?", rowid)
        garbled[table, default: 0] += db.changes
        removed += db.changes
      }
      if removed == 0 { return garbled }
    }
  }

  /// How many rows a table of the fresh file has.
  static func count(_ table: String, _ db: Database, _ limits: SalvageLimits) throws(SalvageProblem) -> Int {
    do throws(SQLiteError) {
      return try db.value("SELECT count(*) FROM main.\(quoted(table))") ?? 0
    } catch {
      throw salvageProblem(error, limits) ?? .failed(error.description)
    }
  }

  /// Whether a row SQLite read as `copy`'s (its `rowid` and the values of `columns`), which
  /// the table has no row of yet, is a row the pages gave to another table: SQLite followed a
  /// damaged pointer into that table's leaf, and read its record as this table's, each
  /// column from its place in the record. The other tables' rows with the same rowid are
  /// compared at those places (the rowid's own column being NULL in a record).
  static func isAnotherTables(
    _ rowid: Int64, _ values: [DatabaseValue], columns: [SalvageColumn], of copy: TableCopy, among copies: [TableCopy],
    _ db: Database
  ) -> Bool {
    guard (try? db.value("SELECT 1 FROM main.\(quoted(copy.name)) WHERE rowid = ?", rowid, as: Int.self)) == nil
    else { return false }  // (the insert passes over it)
    let places = columns.map { column in copy.columns.firstIndex { $0.name == column.name } ?? -1 }
    for other in copies where other.name != copy.name {
      guard let statement = try? db.prepare("SELECT * FROM main.\(quoted(other.name)) WHERE rowid = ?"),
        (try? statement.bind(rowid)) != nil
      else { continue }
      var record: [DatabaseValue]?
      try? statement.forEachRow { (row) throws(SQLiteError) -> Bool in
        var found: [DatabaseValue] = []
        for column in 0..<row.count {
          found.append(
            other.columns.indices.contains(column) && other.columns[column].isRowid ? .null : try row[column])
        }
        record = found
        return false
      }
      guard let record else { continue }
      var compared = 0
      var same = true
      for (value, place) in zip(values, places) where place >= 0 && place < record.count {
        compared += 1
        if !SalvageHash.same(value, record[place]) {
          same = false
          break
        }
      }
      if same && compared > 0 { return true }
    }
    return false
  }

  /// The fresh file's tables, by name.
  static func freshTables(_ db: Database) throws(SQLiteError) -> [String] {
    try db.all("SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name") {
      (row) throws(SQLiteError) in try row[0] as String
    }
  }

  /// A `file:` URI for `path` (its `%`, `?` and `#` escaped) with `query`.
  static func fileURI(_ path: String, query: String) -> String {
    var uri = "file:"
    for character in path {
      switch character {
      case "%": uri += "%25"
      case "?": uri += "%3f"
      case "#": uri += "%23"
      default: uri.append(character)
      }
    }
    return uri + "?" + query
  }

  static func quoted(_ name: String) -> String {
    "\"" + name.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
  }

  static func columnNames(of table: String, in schema: String, _ db: Database) throws(SQLiteError) -> [String] {
    try db.all("SELECT name FROM pragma_table_info(?, ?)", table, schema) { (row) throws(SQLiteError) in
      try row[0] as String
    }
  }

  /// A table's columns, names and types, in order: what tells a table of ours whose name is
  /// damaged in the schema from another.
  static func columnShape(of table: String, in schema: String, _ db: Database) throws(SQLiteError) -> [String] {
    try db.all("SELECT name || ' ' || upper(type) FROM pragma_table_info(?, ?)", table, schema) {
      (row) throws(SQLiteError) in try row[0] as String
    }
  }

  /// The columns of one of the fresh file's tables, as the page reader checks rows against them.
  static func salvageColumns(of table: String, _ db: Database) throws(SQLiteError) -> [SalvageColumn] {
    var columns = try db.all(
      "SELECT name, type, \"notnull\", dflt_value IS NOT NULL, pk FROM pragma_table_info(?)", table
    ) { (row) throws(SQLiteError) in
      (
        SalvageColumn(
          name: try row[0], affinity: SalvageColumn.affinity(of: try row[1]), notNull: try row[2],
          hasDefault: try row[3], isRowid: false, key: try row[4]), pk: try row[4] as Int
      )
    }
    // A single INTEGER PRIMARY KEY column is the rowid.
    let keys = columns.filter { $0.pk > 0 }
    if keys.count == 1, let index = columns.firstIndex(where: { $0.pk > 0 }),
      try db.value("SELECT upper(type) = 'INTEGER' FROM pragma_table_info(?) WHERE pk > 0", table) ?? false
    {
      columns[index].0.isRowid = true
    }
    return columns.map(\.0)
  }

  /// What an SQLite error means to a salvage: a stop (the progress handler said so, for the
  /// reason `limits` gives), a failure (the file is busy, memory ran out), or nil: the rows
  /// asked for cannot be read.
  static func salvageProblem(_ error: SQLiteError, _ limits: SalvageLimits) -> SalvageProblem? {
    if error.is(.interrupt) { return .stopped(limits.stop ?? .outOfWork) }
    if error.is(.busy) || error.is(.locked) { return .failed("the database is busy in another Reckon") }
    if error.is(.noMemory) { return .failed(error.message) }
    return nil
  }

  // MARK: Through SQLite

  /// Copies the rows of `table` that SQLite can read from `source` into `db`; returns the
  /// ranges of rowids it could not read.
  ///
  /// First as sqlite3's .dump reads a table: from the start, in the b-tree's order, until the
  /// damage; then from the end backward, until the damage. Between the two, with a rowid
  /// cursor that only moves forward: past a row that cannot be reached, the next one that can
  /// is searched for upward from there (`nextReadable`), up to the first rowid read from the
  /// end. Each row goes in as SQLite read it (`DatabaseValue`s), unless its rowid is there or
  /// a value is not of its column's type (SQLite reads another table's rows through a
  /// pointer damaged to point at them). Returns the gaps, and how many rows did not fit.
  static func copyRows(
    of table: String, columns: [SalvageColumn], readAs: [String: String] = [:], from source: Database,
    into db: Database, _ limits: SalvageLimits, accept: (Int64, [DatabaseValue]) -> Bool = { _, _ in true }
  ) throws(SalvageProblem) -> (gaps: [RowidGap], rejected: Int) {
    var rejected = 0
    // What is read: each column by its name in the damaged file (`readAs`: a damaged name).
    let list = columns.map { quoted(readAs[$0.name] ?? $0.name) }.joined(separator: ", ")
    let targets = columns.map { quoted($0.name) }.joined(separator: ", ")
    let from = "FROM main.\(quoted(table))"
    let marks = [String](repeating: "?", count: columns.count + 1).joined(separator: ", ")
    let insert = "INSERT OR IGNORE INTO main.\(quoted(table)) (rowid, \(targets)) VALUES (\(marks))"
    // Every row read goes in; returns the last rowid read, and whether it read to the end.
    // `increasing`: a rowid not larger than the one before (a tree whose pointers loop back,
    // which SQLite can read round many times before it notices) ends the scan as damage.
    func scan(_ sql: String, _ parameter: Int64?, until stop: Int64? = nil, increasing: Bool = false)
      throws(SalvageProblem) -> (last: Int64?, whole: Bool)
    {
      var last = increasing ? parameter : nil
      var inOrder = true
      do throws(SQLiteError) {
        let reader = try source.cached(sql)
        let writer = try db.cached(insert)
        if let parameter { try reader.bind(parameter) } else { try reader.bind() }
        try reader.forEachRow { (row) throws(SQLiteError) -> Bool in
          let rowid: Int64 = try row[0]
          if increasing, let last, rowid <= last {
            inOrder = false
            return false
          }
          last = rowid
          var values: [DatabaseValue] = []
          for column in 1..<row.count { values.append(try row[column]) }
          guard zip(columns, values).allSatisfy({ $0.takes($1) }), accept(rowid, values) else {
            rejected += 1
            return stop.map { rowid < $0 } ?? true
          }
          writer.reset()
          try writer.bind(rowid, at: 1)
          for (index, value) in values.enumerated() { try writer.bind(value, at: index + 2) }
          do throws(SQLiteError) {
            try writer.run()
          } catch {
            // A write that fails (not a row that cannot be read): the salvage fails.
            if error.is(.interrupt) { throw error }
            if !error.is(.constraint) { throw SQLiteError(code: .abort, message: "write: " + error.message) }
          }
          return stop.map { rowid < $0 } ?? true
        }
        return (last == parameter && increasing ? nil : last, inOrder)
      } catch {
        if let problem = salvageProblem(error, limits) { throw problem }
        if error.is(.abort) && error.message.hasPrefix("write: ") { throw .failed(error.message) }
        return (last == parameter && increasing ? nil : last, false)
      }
    }
    // As .dump: from the start, then from the end.
    let forward = try scan("SELECT rowid, \(list) \(from)", nil)
    if forward.whole { return ([], rejected) }
    try limits.check()
    let backward = try scan("SELECT rowid, \(list) \(from) ORDER BY rowid DESC", nil)
    let end = backward.last  // rows from here on were read
    // Between: forward from the start with a cursor, past every place that cannot be read.
    var gaps: [RowidGap] = []
    var after = Int64.min  // (no rowid of Reckon's is Int64.min: they start at 1)
    let scanFrom = "SELECT rowid, \(list) \(from) WHERE rowid > ? ORDER BY rowid"
    while after < Int64.max {
      try limits.check()
      if let end, after >= end { return (gaps, rejected) }
      let read = try scan(scanFrom, after, until: end, increasing: true)
      if read.whole { return (gaps, rejected) }
      // The cursor only moves forward (a row out of order, read before the damage, does not
      // take it back).
      after = max(after, read.last ?? after)
      guard after < Int64.max else { return (gaps, rejected) }
      // The rows after `after` cannot be reached: find the next one that can (past it:
      // `nextReadable` never gives one that is not, so the cursor moves on).
      let next = try nextReadable(from, after: after, upTo: end, source, limits)
      gaps.append(RowidGap(after: after, before: next))
      guard let next, next - 1 > after else { return (gaps, rejected) }
      after = next - 1
    }
    return (gaps, rejected)
  }

  enum Read: Equatable {
    case row(Int64)
    case none
    case unreadable

    var row: Int64? {
      if case .row(let row) = self { return row }
      return nil
    }
  }

  /// A probe's answer, unless it is a rowid below the one asked for (a damaged b-tree's keys
  /// out of order: SQLite trusts them and gives what lies where it looked), which is damage.
  static func atLeast(_ rowid: Int64, _ read: Read) -> Read {
    if case .row(let found) = read, found < rowid { return .unreadable }
    return read
  }

  /// The rowid a query gives (nil as `.none`), or `.unreadable` when it fails on the damage.
  static func read(_ sql: String, _ value: Int64, _ db: Database, _ limits: SalvageLimits) throws(SalvageProblem)
    -> Read
  {
    do throws(SQLiteError) {
      return try db.value(sql, value, as: Int64?.self).flatMap { $0 }.map(Read.row) ?? .none
    } catch {
      if let problem = salvageProblem(error, limits) { throw problem }
      return .unreadable
    }
  }

  /// The first rowid SQLite can read past `after`, when the row after `after` cannot be
  /// reached; nil when none can. Probes upward from `after` in steps that double until one
  /// reads (never past `upTo`, when known), then bisects between the last that failed and the
  /// first that read: at most about 128 probes, each a seek.
  static func nextReadable(
    _ from: String, after: Int64, upTo largest: Int64?, _ db: Database, _ limits: SalvageLimits
  ) throws(SalvageProblem) -> Int64? {
    let probe = "SELECT rowid \(from) WHERE rowid >= ? ORDER BY rowid LIMIT 1"
    var bad = after + 1  // the first rowid from which nothing can be read (known)
    var step: Int64 = 1
    var good: (at: Int64, read: Read)
    while true {
      try limits.check()
      let (sum, overflow) = bad.addingReportingOverflow(step)
      var at = overflow ? Int64.max : sum
      if let largest, at > largest { at = largest }
      guard at > bad else { return nil }
      let found = try atLeast(at, read(probe, at, db, limits))
      if found != .unreadable {
        good = (at, found)
        break
      }
      if at == Int64.max { return nil }
      bad = at
      step = step > Int64.max / 2 ? Int64.max : step * 2
    }
    // Reads from `good.at` on, not from `bad`: the first that does lies between.
    while UInt64(bitPattern: good.at) &- UInt64(bitPattern: bad) > 1 {
      try limits.check()
      let middle = Int64(
        bitPattern: UInt64(bitPattern: bad) &+ (UInt64(bitPattern: good.at) &- UInt64(bitPattern: bad)) / 2)
      let found = try atLeast(middle, read(probe, middle, db, limits))
      if found == .unreadable {
        bad = middle
      } else {
        good = (middle, found)
      }
    }
    return good.read.row
  }

  // MARK: From the pages

  /// Reads every table's leaves from the file's pages (`PageSalvage`, walking each table's
  /// b-tree from its root as SQLite does) and puts each row that holds together in the fresh
  /// file, in the table whose leaf it lies on: a leaf of one table's tree whose rows are
  /// another's (a pointer damaged to point at it) goes to that other one. Then the leaves no
  /// tree reaches (the subtrees under a damaged page; every leaf, when the schema is lost),
  /// each to the table its rows show it is (`SalvageOwners`): when that table's tree is known
  /// and whole, only where its indexes say it lacks their rows, or they have entries in its
  /// indexes (so a leaf of rows deleted long ago, off the freelist, does not come back).
  /// Nothing here reads the damaged file through SQLite.
  static func copyPages(
    _ pages: inout PageSalvage, _ copies: inout [TableCopy], schema: [PageSalvage.SchemaRow], sqlReadSchema: Bool,
    modeNames: Set<String>, fileIsTrusted: Bool, _ db: Database, _ limits: SalvageLimits
  ) throws(SalvageProblem) {
    if !sqlReadSchema { for index in copies.indices { copies[index].damaged = true } }
    // Each table of ours by its entry in the schema: by name, or (a name damaged) by the name
    // its row gives the table, or its CREATE statement.
    var entries: [String: PageSalvage.SchemaRow] = [:]
    for copy in copies {
      let tables = schema.filter { $0.type == "table" }
      entries[copy.name] =
        tables.first { $0.name == copy.name } ?? tables.first { $0.table == copy.name }
        ?? tables.first {
          $0.sql.hasPrefix("CREATE TABLE \(quoted(copy.name)) ") || $0.sql.hasPrefix("CREATE TABLE \(copy.name) ")
        }
    }
    pages.roots = Set(schema.map(\.root))
    var trees: [String: PageSalvage.Tree] = [:]
    for row in schema where row.type == "table" {
      try limits.check()
      let owner = entries.first { $0.value.root == row.root }?.key ?? row.name
      if trees[owner] == nil { trees[owner] = pages.walkTable(row.root, of: owner) }
    }
    var owners = SalvageOwners(
      tables: copies, entries: pages.indexEntries, tableNames: Set(schema.map(\.name) + copies.map(\.name)),
      modeNames: modeNames)
    /// Puts `rows` in table `index`: those whose rowid or key is not there yet, and those whose
    /// place a row holds that fewer of the table's indexes name (a row with a byte of its key or
    /// profile damaged, read first, would otherwise keep the row whose key it took out).
    func keep(_ rows: [(Int64, [DatabaseValue])], in index: Int) throws(SalvageProblem) {
      for (rowid, values) in rows {
        if case .text(let name) = values.first, copies[index].columns.first?.name == "profile" {
          owners.profilesNamed.insert(name)
        }
        if try insert(rowid, values, into: copies[index], db, limits) == 0 {
          let named = owners.namedBy(rowid, values, copies[index])
          if named > 0 { try contest(rowid, values, named: named, in: copies[index], owners, db, limits) }
        }
      }
    }
    // Leaves to find an owner for: those a tree reached whose rows are another table's, and
    // the trees of a table that is none of ours (a name damaged past recognition: `prof�le`).
    let ours = Set(copies.map(\.name))
    var strays = trees.filter { !ours.contains($0.key) && !$0.key.hasPrefix("sqlite_") }.map {
      PageSalvage.Tree(leaves: $0.value.leaves, damaged: [])
    }
    // Rows whose rowids were out of their leaf's order, by table: they go in last.
    var late: [(table: Int, rows: [(Int64, [DatabaseValue])])] = []
    // Every leaf of each table's own tree.
    for index in copies.indices {
      guard entries[copies[index].name] != nil, let tree = trees[copies[index].name] else { continue }
      for range in tree.damaged {
        copies[index].damaged = true
        copies[index].gaps.append(
          RowidGap(after: range.after ?? Int64.min, before: range.upTo.flatMap { $0 == Int64.max ? nil : $0 + 1 }))
      }
      let copy = copies[index]
      for leaf in tree.leaves {
        try limits.check()
        let before = pages.rejected
        let rows = pages.rows(of: leaf.page, in: leaf) ?? []
        let outOfOrder = pages.outOfOrder
        pages.outOfOrder = []
        let fitting = rows.filter { SalvageColumn.fits($0.1, copy.columns) }
        pages.rejected += rows.count - fitting.count
        if pages.rejected > before { copies[index].damaged = true }
        // Another table's rows (a pointer damaged to point at another table's leaf, which its
        // own table may reach too), or most of them not this table's: this table's own leaf
        // is lost from sight, and the rows go where they show they belong. (Rows most of
        // which its indexes name are its own: the others need not be asked.)
        let named = owners.score(rows, copy).map { $0.evidence * 2 >= rows.count } ?? false
        let owner = named ? .table(index) : owners.owner(of: rows)
        if fitting.count * 2 < rows.count || (owner != nil && owner != .table(index)) {
          strays.append(PageSalvage.Tree(leaves: [leaf], damaged: []))
          copies[index].damaged = true
          copies[index].gaps.append(
            RowidGap(after: leaf.after ?? Int64.min, before: leaf.upTo.flatMap { $0 == Int64.max ? nil : $0 + 1 }))
          continue
        }
        try keep(fitting, in: index)
        if !outOfOrder.isEmpty {
          copies[index].damaged = true
          late.append((index, outOfOrder.filter { SalvageColumn.fits($0.1, copy.columns) }))
        }
      }
    }
    // The leaves no tree reaches, and the strays, each tree of them to the table its rows
    // show it is. (The profiles last: the names the other tables' rows give tell them from
    // the modes' bookkeeping.)
    let orphans = pages.orphanTrees() + strays
    if !orphans.isEmpty {
      for index in copies.indices where trees[copies[index].name] == nil { copies[index].damaged = true }
      var pending: [(rows: [(Int64, [DatabaseValue])], tree: Int, late: [(Int64, [DatabaseValue])])] = []
      for (number, tree) in orphans.enumerated() {
        for leaf in tree.leaves {
          try limits.check()
          let rows = pages.rows(of: leaf.page, in: nil) ?? []
          let outOfOrder = pages.outOfOrder
          pages.outOfOrder = []
          guard !rows.isEmpty else { continue }
          pending.append((rows, number, outOfOrder))
        }
      }
      // A tree's leaves go together: to the owner its rows as a whole show (from a sample of
      // them spread over its leaves), unless a leaf's rows do not fit it; then each leaf's own.
      var byTree: [Int: [(Int64, [DatabaseValue])]] = [:]
      for item in pending { byTree[item.tree, default: []] += item.rows }
      let profile = copies.firstIndex { $0.name == "profile" }
      for pass in 0..<2 {
        var treeOwners: [Int: SalvageOwners.Owner?] = [:]
        for item in pending {
          try limits.check()
          if treeOwners[item.tree] == nil {
            let rows = byTree[item.tree] ?? item.rows
            let step = max(1, rows.count / 256)
            treeOwners[item.tree] = owners.owner(of: stride(from: 0, to: rows.count, by: step).map { rows[$0] })
          }
          var found = treeOwners[item.tree] ?? nil
          if case .table(let index) = found,
            item.rows.filter({ SalvageColumn.fits($0.1, copies[index].columns) }).count * 2 < item.rows.count
          {
            found = nil
          }
          guard let owner = found ?? owners.owner(of: item.rows), case .table(let index) = owner
          else { continue }
          // The profiles in the second pass, once the other tables' rows have named theirs.
          guard (index == profile) == (pass == 1) else { continue }
          let fitting = item.rows.filter { SalvageColumn.fits($0.1, copies[index].columns) }
          // Where the freelist is not known (the header is not to be trusted), a table whose
          // tree is known and whole takes only rows its indexes name, or rows where its tree
          // is damaged: rows deleted long ago, off the freelist, stay out.
          if !fileIsTrusted, let tree = trees[copies[index].name], entries[copies[index].name] != nil,
            tree.damaged.isEmpty, let score = owners.score(fitting, copies[index]), score.evidence == 0
          {
            continue
          }
          copies[index].damaged = true
          try keep(fitting, in: index)
          if !item.late.isEmpty {
            late.append((index, item.late.filter { SalvageColumn.fits($0.1, copies[index].columns) }))
          }
        }
      }
    }
    // Last, the rows out of their leaf's order: a rowid another row has is that row's (but as
    // `keep` says).
    for (index, rows) in late { try keep(rows, in: index) }
  }

  /// A row `named` by that many of `copy`'s indexes that could not go in: the rows in its
  /// place (its rowid's, and its key's) make way for it when each is named by fewer.
  static func contest(
    _ rowid: Int64, _ values: [DatabaseValue], named: Int, in copy: TableCopy, _ owners: SalvageOwners,
    _ db: Database, _ limits: SalvageLimits
  ) throws(SalvageProblem) {
    let key = copy.columns.indices.filter { copy.columns[$0].key > 0 && !copy.columns[$0].isRowid }
      .sorted { copy.columns[$0].key < copy.columns[$1].key }
    var condition = "rowid = ?"
    var bound: [any SQLiteValue] = [rowid]
    if !key.isEmpty, key.allSatisfy({ $0 < values.count }) {
      condition += " OR (" + key.map { "\(quoted(copy.columns[$0].name)) IS ?" }.joined(separator: " AND ") + ")"
      bound += key.map { values[$0] }
    }
    do throws(SQLiteError) {
      let statement = try db.prepare("SELECT rowid, * FROM main.\(quoted(copy.name)) WHERE \(condition)")
      for (place, value) in bound.enumerated() { try statement.bind(value, at: place + 1) }
      var occupants: [Int64] = []
      var stays = false
      try statement.forEachRow { (row) throws(SQLiteError) -> Bool in
        let occupant: Int64 = try row[0]
        var found: [DatabaseValue] = []
        for column in 1..<row.count { found.append(try row[column]) }
        occupants.append(occupant)
        stays = stays || owners.namedBy(occupant, found, copy) >= named
        return !stays
      }
      guard !stays, !occupants.isEmpty else { return }
      for occupant in occupants { try db.run("DELETE FROM main.\(quoted(copy.name)) WHERE rowid = ?", occupant) }
    } catch {
      throw salvageProblem(error, limits) ?? .failed(error.description)
    }
    _ = try insert(rowid, values, into: copy, db, limits)
  }

  /// What each table lost: the rowids its indexes name that no row kept has (those every
  /// index read whole names), for every table where anything was amiss.
  static func countLost(
    _ pages: inout PageSalvage, _ copies: inout [TableCopy], schema: [PageSalvage.SchemaRow], _ db: Database,
    _ limits: SalvageLimits
  ) throws(SalvageProblem) {
    for index in copies.indices {
      try limits.check()
      let entry =
        schema.first { $0.type == "table" && $0.name == copies[index].name }
        ?? schema.first { $0.type == "table" && $0.table == copies[index].name }
      // (A table whose tree was read whole lost nothing, whatever its indexes say: then it is
      // an index that is damaged.)
      guard copies[index].damaged else { continue }
      let missing = try lostRowids(copies[index], entry: entry, schema, &pages, db, limits)
      copies[index].lost = missing?.count ?? 0
      copies[index].lostIsExact = missing != nil
    }
  }

  /// The columns of each index of a fresh table (its places in `columns`), from SQLite's own
  /// account of them: the indexes a primary key or `UNIQUE` makes too.
  static func indexColumns(of table: String, _ columns: [SalvageColumn], _ db: Database) throws(SQLiteError) -> [[Int]]
  {
    let names = try db.all("SELECT name FROM pragma_index_list(?)", table) { (row) throws(SQLiteError) in
      try row[0] as String
    }
    var indexes: [[Int]] = []
    for name in names {
      let places = try db.all("SELECT cid FROM pragma_index_info(?) ORDER BY seqno", name) {
        (row) throws(SQLiteError) in Int(try row[0] as Int64)
      }
      guard !places.isEmpty, places.allSatisfy({ $0 >= 0 && $0 < columns.count }) else { continue }
      indexes.append(places)
    }
    return indexes
  }

  /// The rowids `copy`'s indexes name that the fresh file's table lacks (those of the index
  /// with the most entries, read whole); nil when no index of it can be read whole.
  static func lostRowids(
    _ copy: TableCopy, entry: PageSalvage.SchemaRow?, _ schema: [PageSalvage.SchemaRow], _ pages: inout PageSalvage,
    _ db: Database, _ limits: SalvageLimits
  ) throws(SalvageProblem) -> Set<Int64>? {
    let indexes = schema.filter { row in
      row.type == "index" && row.root > 0 && (row.table == copy.name || (entry != nil && row.table == entry?.name))
    }
    var kept: Int
    do throws(SQLiteError) {
      kept = try db.value("SELECT count(*) FROM main.\(quoted(copy.name))") ?? 0
    } catch {
      throw salvageProblem(error, limits) ?? .failed(error.description)
    }
    var whole: [(root: Int, key: [SalvageColumn])] = []
    for index in indexes {
      guard let key = indexKey(index, copy.columns) else { continue }
      let (entries, complete) = pages.indexEntryCount(index.root)
      // As many entries as rows kept: nothing is missing (unless the kept rows are others).
      if complete && entries == kept && !copy.damaged { return [] }
      if complete { whole.append((index.root, key)) }
    }
    // The rowids every index read whole names: an index whose pages read but one of which
    // is another's copy (each of its rowids named twice, another page's lost), or one whose
    // entries do not agree with the rows kept (another index's page copied over one of its
    // own, with the same types of columns), is not whole.
    var named: Set<Int64>?
    for (root, key) in whole {
      try limits.check()
      let (entries, complete) = pages.indexRowids(root, key: key)
      guard complete, try agrees(entries, key: key, with: copy, db, limits) else { continue }
      named = (named ?? []).union(entries.keys)
    }
    guard let named else { return nil }
    let found = try SQLiteStore.kept(Array(named), in: copy.name, db, limits)
    return named.subtracting(found)
  }

  /// Whether every entry of an index (hashed, by rowid) that names a row kept is made of that
  /// row's values.
  static func agrees(
    _ entries: [Int64: Int], key: [SalvageColumn], with copy: TableCopy, _ db: Database, _ limits: SalvageLimits
  ) throws(SalvageProblem) -> Bool {
    let columns = key.map { $0.isRowid ? "rowid" : quoted($0.name) }.joined(separator: ", ")
    do throws(SQLiteError) {
      var agree = true
      let statement = try db.prepare("SELECT rowid, \(columns) FROM main.\(quoted(copy.name))")
      try statement.forEachRow { (row) throws(SQLiteError) -> Bool in
        let rowid: Int64 = try row[0]
        guard let entry = entries[rowid] else { return true }
        var values: [DatabaseValue] = []
        for column in 1..<row.count { values.append(try row[column]) }
        agree = SalvageHash.of(values, rowid: rowid) == entry
        return agree
      }
      return agree
    } catch {
      throw salvageProblem(error, limits) ?? .failed(error.description)
    }
  }

  /// The columns an index is on, from its CREATE INDEX statement, or the table's primary
  /// key for the index SQLite makes for it (`sqlite_autoindex_…`, which has no statement).
  static func indexKey(_ index: PageSalvage.SchemaRow, _ columns: [SalvageColumn]) -> [SalvageColumn]? {
    guard !index.sql.isEmpty else {
      let key = (1...max(1, columns.count)).compactMap { place in columns.first { $0.key == place } }
      return key.isEmpty ? nil : key
    }
    // CREATE INDEX "name" ON "table"("a", "b"): the first parenthesis holds the columns.
    guard index.sql.hasPrefix("CREATE INDEX "), let open = index.sql.firstIndex(of: "("),
      let close = index.sql[open...].firstIndex(of: ")")
    else { return nil }
    var key: [SalvageColumn] = []
    for part in index.sql[index.sql.index(after: open)..<close].split(separator: ",") {
      let name = part.split(separator: " ").first.map { $0.filter { $0 != "\"" && $0 != "`" } } ?? ""
      guard let column = columns.first(where: { $0.name == name }) else { return nil }
      key.append(column)
    }
    return key.isEmpty ? nil : key
  }

  /// Those of `rowids` that the fresh file's table has.
  static func kept(_ rowids: [Int64], in table: String, _ db: Database, _ limits: SalvageLimits) throws(SalvageProblem)
    -> Set<Int64>
  {
    guard let low = rowids.min(), let high = rowids.max() else { return [] }
    let wanted = Set(rowids)
    do throws(SQLiteError) {
      // One range read (cheap when the rowids are close together, as a page's are); each
      // rowid alone when they are far apart.
      if high &- low <= Int64(rowids.count) * 4 && high >= low {
        let found = try db.all("SELECT rowid FROM main.\(quoted(table)) WHERE rowid BETWEEN ? AND ?", low, high) {
          (row) throws(SQLiteError) in try row[0] as Int64
        }
        return wanted.intersection(found)
      }
      var found = Set<Int64>()
      for rowid in wanted
      where try db.value("SELECT 1 FROM main.\(quoted(table)) WHERE rowid = ?", rowid, as: Int.self) != nil {
        found.insert(rowid)
      }
      return found
    } catch {
      throw salvageProblem(error, limits) ?? .failed(error.description)
    }
  }

  /// Whether a page's rows are `sqlite_sequence`'s (a table's name and a number), which
  /// would otherwise fit the profiles.
  static func isSequence(_ rows: [(Int64, [DatabaseValue])], names: Set<String>) -> Bool {
    rows.allSatisfy { row in
      guard row.1.count == 2, case .text(let name) = row.1[0], case .integer = row.1[1] else { return false }
      return names.contains(String(decoding: name, as: UTF8.self))
    }
  }

  /// Inserts a row read from a page (its values in the table's column order; the rowid's
  /// own column is the rowid), unless one with its rowid or key is there; how many went in.
  static func insert(
    _ rowid: Int64, _ values: [DatabaseValue], into copy: TableCopy, _ db: Database, _ limits: SalvageLimits
  ) throws(SalvageProblem) -> Int {
    let count = min(values.count, copy.columns.count)
    guard count > 0 else { return 0 }
    do throws(SQLiteError) {
      let statement = try db.cached(copy.inserts[count - 1])
      statement.reset()
      try statement.bind(rowid, at: 1)
      var place = 2
      for index in 0..<count where !copy.columns[index].isRowid {
        try statement.bind(values[index], at: place)
        place += 1
      }
      try statement.run()
      return db.changes
    } catch {
      if let problem = salvageProblem(error, limits) { throw problem }
      return 0
    }
  }
}
