import Glibc
import SQLite

/// How long a salvage may take, and whether the user has asked it to stop (Ctrl-C).
struct SalvageLimits: Sendable {
  enum Stop: Sendable, Equatable {
    case interrupted
    case outOfTime
  }

  /// The monotonic millisecond by which it must be done.
  let deadline: Int64
  let interrupted: @Sendable () -> Bool
  let clock: @Sendable () -> Int64

  init(
    milliseconds: Int64, interrupted: @escaping @Sendable () -> Bool,
    clock: @escaping @Sendable () -> Int64 = monotonicMilliseconds
  ) {
    deadline = clock() + milliseconds
    self.interrupted = interrupted
    self.clock = clock
  }

  /// Why the salvage must stop now, if it must.
  var stop: Stop? {
    if interrupted() { return .interrupted }
    return clock() >= deadline ? .outOfTime : nil
  }

  func check() throws(SalvageProblem) {
    if let stop { throw .stopped(stop) }
  }
}

/// Why a salvage did not copy everything: stopped (Ctrl-C, or out of time), or it could not
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
  }

  var tables: [Table]
  /// Out of time: what was read so far is in the fresh file, and some rows were not looked at.
  var ranOutOfTime = false
}

/// One table being copied: its columns in the fresh file, and what SQLite could not read.
struct TableCopy {
  var name: String
  var columns: [SalvageColumn]
  /// The rowids SQLite could not read, and those under a page the page reader found damaged
  /// (SQLite may have read other rows in their place, without an error: a pointer to the
  /// wrong page). Signs that rows may be missing, which are then counted.
  var gaps: [RowidGap] = []
  /// Whether anything was amiss: a gap, a damaged page, a row that did not hold together or
  /// did not fit the columns, a row SQLite passed over. Then what was lost is counted.
  var damaged = false
  var lost = 0
  var lostIsExact = true
}

extension SQLiteStore {
  /// Copies what can be read of the damaged database at `damaged` into a new one at `fresh`
  /// (an empty file), which is then closed.
  ///
  /// The fresh file is made at the damaged one's version, so that each of its tables has one
  /// to go into (a file from before v6 keeps its personality results in a table of their
  /// own), and migrated to today's once the rows are in. Every table is read twice over:
  /// through SQLite first (`copyRows`: every row SQLite can read, in rowid order, passing
  /// over what it cannot), then from the file's pages (`copyPages`), which also counts the
  /// rows lost. The damaged file is read on a connection of its own, read-only, and the rows
  /// go into the fresh one in one transaction (a connection that has met the damage may not
  /// commit). Everything runs under `limits`: SQLite's statements through its progress
  /// handler, the page reader between pages. Out of time, what was copied is kept
  /// (`ranOutOfTime`); interrupted, it fails.
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
    // The damaged file, read-only. `writable_schema` makes SQLite read the tables it can when
    // part of the schema is damaged, as sqlite3's .dump does (nothing can be written on this
    // connection all the same).
    let source = try? Database(fileURI(damaged, query: "mode=ro"), flags: [.readOnly, .uri])
    source?.setProgressHandler { limits.stop != nil }
    source?.setBusyTimeout(milliseconds: 2000)
    try? source?.execute("PRAGMA writable_schema = ON")
    // The schema as SQLite reads it, if it can (then each table SQLite knows is read through
    // it, and one it lacks, a newer table in an older file, has nothing to copy); else as
    // the page reader reads it.
    let sqlSchema = try? source?.all("SELECT type, name, tbl_name, rootpage, sql FROM sqlite_master") {
      (row) throws(SQLiteError) in
      PageSalvage.SchemaRow(
        type: try row[0] as String? ?? "", name: try row[1] as String? ?? "", table: try row[2] as String? ?? "",
        root: Int(try row[3] as Int64? ?? 0), sql: try row[4] as String? ?? "")
    }
    let file = DatabaseFile(path: damaged, stop: { limits.stop != nil })
    var pages = file.map { PageSalvage(file: $0, limits: limits) }
    let ownSchema = pages?.schema() ?? []  // (walks the schema's own pages too)
    var userVersion = file?.userVersion
    if let source, let found = try? Schema.migrator.version(of: source) { userVersion = found }
    let version = Schema.version(of: sqlSchema ?? ownSchema, userVersion: userVersion)
    try limits.check()
    let db: Database
    var copies: [TableCopy] = []
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
      // statements say, with their indexes and versions: a salvage keeps their rows too.
      let schema = sqlSchema ?? ownSchema
      let known = ModeTablesMigrator.tableNames(of: modes)
      for row in schema
      where row.type == "table" && !tables.contains(row.name) && !row.name.hasPrefix("sqlite_")
        && row.name != "modeTables" && !known.contains(row.name) && !Schema.mergedIntoGameResults(row.name)
        && row.sql.hasPrefix("CREATE TABLE ")
      {
        guard (try? db.execute(row.sql)) != nil else { continue }
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
        for (name, version) in versions where version > 0 && !modes.contains(where: { $0.name == name }) {
          try db.execute(ModeTablesMigrator.bookkeeping)
          try db.run("INSERT OR IGNORE INTO modeTables (name, version) VALUES (?, ?)", name, version)
        }
      }
      tables = try freshTables(db)
      for table in tables where table != "modeTables" {
        copies.append(TableCopy(name: table, columns: try salvageColumns(of: table, db)))
      }
      // The small tables first, the modes' own next, the answers (the bulk) last: out of
      // time, what is lost is answers, not the settings, profiles, a mode's rows or learning
      // boxes that were never reached.
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
    var ranOutOfTime = false
    do throws(SalvageProblem) {
      for index in copies.indices {
        guard let source, let schema = sqlSchema else {
          // SQLite cannot read the schema: every row is for the page reader to find.
          copies[index].gaps = [RowidGap(after: Int64.min, before: nil)]
          continue
        }
        guard schema.contains(where: { $0.type == "table" && $0.name == copies[index].name }) else {
          // A table of ours SQLite cannot find by its name (damaged in the schema, say): the
          // page reader looks for it.
          copies[index].gaps = [RowidGap(after: Int64.min, before: nil)]
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
        guard !shared.isEmpty else {
          copies[index].gaps = [RowidGap(after: Int64.min, before: nil)]
          continue
        }
        let (gaps, rejected) = try copyRows(
          of: copies[index].name, columns: shared, readAs: readAs, from: source, into: db, limits)
        copies[index].gaps = gaps
        copies[index].damaged = !gaps.isEmpty || rejected > 0
      }
      if var found = pages {
        try copyPages(&found, &copies, schema: sqlSchema ?? ownSchema, sqlReadSchema: sqlSchema != nil, db, limits)
      } else {
        try limits.check()
        // (What was lost is counted from the pages: without them, it is not known.)
        for index in copies.indices { copies[index].lostIsExact = false }
      }
    } catch .stopped(.outOfTime) {
      ranOutOfTime = true
    } catch {
      throw error
    }
    // Finishing: no longer bounded by the clock (a fresh file's migrations and counts), only
    // by Ctrl-C.
    db.setProgressHandler { limits.interrupted() }
    do throws(SQLiteError) {
      try db.execute("COMMIT")
      try Schema.migrator.migrate(db)
      try ModeTablesMigrator.migrate(db, modes)
      // Every row names a profile: one whose row was lost comes back, created at 0.
      let tables = try freshTables(db)
      for table in tables where try columnNames(of: table, in: "main", db).contains("profile") {
        try db.execute(
          "INSERT OR IGNORE INTO main.profile (name, createdAt) SELECT DISTINCT profile, 0 FROM main.\(quoted(table))")
      }
      var report: [SalvageCopy.Table] = []
      for table in tables where table != "modeTables" {
        var entry = SalvageCopy.Table(name: table)
        entry.kept = try db.value("SELECT count(*) FROM main.\(quoted(table))") ?? 0
        // The tables v6 merged into the game results count as game results.
        for copy in copies
        where copy.name == table || (table == "gameResult" && Schema.mergedIntoGameResults(copy.name)) {
          entry.lost += copy.lost
          entry.lostIsExact = entry.lostIsExact && copy.lostIsExact
        }
        report.append(entry)
      }
      db.setProgressHandler(nil)
      return SalvageCopy(tables: report, ranOutOfTime: ranOutOfTime)
    } catch {
      throw salvageProblem(error, limits) ?? .failed(error.description)
    }
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
    if error.is(.interrupt) { return .stopped(limits.stop ?? .outOfTime) }
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
    into db: Database, _ limits: SalvageLimits
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
          guard zip(columns, values).allSatisfy({ $0.takes($1) }) else {
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
  /// b-tree from its root as SQLite does) and puts in the fresh file each row that holds
  /// together and is not there yet: the rows SQLite could not reach, and those it passed over
  /// without a word (a rowid damaged into a larger one ends its range scans early; a pointer to
  /// the wrong leaf hides the right one). Where a tree is damaged, the leaves no tree reaches
  /// any more go to the one table whose damaged range holds all their rowids and whose columns
  /// fit their rows. Then counts what was lost: the rowids a table's indexes name that no row
  /// kept has. `schema` is SQLite's reading of the damaged file's schema, if it could read it.
  /// Nothing here reads the damaged file through SQLite.
  static func copyPages(
    _ pages: inout PageSalvage, _ copies: inout [TableCopy], schema: [PageSalvage.SchemaRow], sqlReadSchema: Bool,
    _ db: Database, _ limits: SalvageLimits
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
      let owner = entries.first { $0.value.root == row.root }?.key ?? row.name
      if trees[owner] == nil { trees[owner] = pages.walkTable(row.root, of: owner) }
    }
    try limits.check()
    // The leaves a table reached whose rows are most not its own.
    var misfits: [Int] = []
    // Every leaf of each table's tree: the rows not kept yet.
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
        var failure: SalvageProblem?
        let before = pages.rejected
        let rows = pages.rows(of: leaf.page, in: leaf) { rowids in
          do throws(SalvageProblem) {
            return try kept(rowids, in: copy.name, db, limits)
          } catch {
            failure = error
            return Set(rowids)
          }
        }
        if let failure { throw failure }
        let fitting = (rows ?? []).filter { SalvageColumn.fits($0.1, copy.columns) }
        pages.rejected += (rows ?? []).count - fitting.count
        if pages.rejected > before { copies[index].damaged = true }
        // Most rows not of this table: a pointer damaged to point at another table's leaf
        // (which its own table may reach too), and this table's own leaf lost from sight.
        if fitting.count * 2 < (rows ?? []).count {
          misfits.append(leaf.page)
          trees[copy.name]?.damaged.append(leaf)
          copies[index].gaps.append(
            RowidGap(after: leaf.after ?? Int64.min, before: leaf.upTo.flatMap { $0 == Int64.max ? nil : $0 + 1 }))
          continue
        }
        for (rowid, values) in fitting where try insert(rowid, values, into: copy, db, limits) > 0 {
          copies[index].damaged = true
        }
      }
    }
    // What each table's indexes say it had and it has not: the number of their entries
    // first (cheap), the rowids they name only when that number is not the rows kept.
    var missing: [Set<Int64>?] = []  // nil: no index could be read whole
    for index in copies.indices {
      try limits.check()
      missing.append(try lostRowids(copies[index], entry: entries[copies[index].name], schema, &pages, db, limits))
      if missing[index].map({ !$0.isEmpty }) ?? copies[index].damaged { copies[index].damaged = true }
    }
    // The leaves no tree reaches any more, when a table's tree is damaged (or its root is
    // not known), or its indexes name rows it has not: each goes to the one table whose
    // columns fit its rows and whose damaged ranges, or missing rowids, hold all of them.
    let homeless = copies.indices.filter { index in
      entries[copies[index].name] == nil || trees[copies[index].name].map { !$0.damaged.isEmpty } ?? true
        || missing[index].map { !$0.isEmpty } ?? false
    }
    if !homeless.isEmpty {
      pages.markFreelist()
      let names = Set(schema.map(\.name) + copies.map(\.name))
      // (And the leaves of a table that is none of ours: a name damaged past recognition.)
      let ours = Set(copies.map(\.name))
      let strangers = pages.leafOwners.filter { !ours.contains($0.value) && !$0.value.hasPrefix("sqlite_") }.keys
      for number in pages.unreachedLeaves() + misfits + strangers.sorted() {
        try limits.check()
        guard let rows = pages.rows(of: number, in: nil), !rows.isEmpty, !isSequence(rows, names: names) else {
          continue
        }
        var homes: [(Int, [(Int64, [DatabaseValue])])] = []
        for index in homeless {
          let fitting = rows.filter { SalvageColumn.fits($0.1, copies[index].columns) }
          guard !fitting.isEmpty, fitting.count * 2 >= rows.count else { continue }
          // Each row where its table's tree is damaged, or one its indexes name and it lacks
          // (when the tree is known).
          if entries[copies[index].name] != nil, let tree = trees[copies[index].name] {
            let lacking = missing[index] ?? []
            guard fitting.allSatisfy({ row in lacking.contains(row.0) || tree.damaged.contains { $0.holds(row.0) } })
            else { continue }
          }
          homes.append((index, fitting))
        }
        guard homes.count == 1, let (index, fitting) = homes.first else { continue }
        for (rowid, values) in fitting where try insert(rowid, values, into: copies[index], db, limits) > 0 {
          copies[index].damaged = true
          missing[index]?.remove(rowid)
        }
      }
    }
    // What was lost: the rowids an index names with no row kept.
    for index in copies.indices where copies[index].damaged {
      copies[index].lost = missing[index]?.count ?? 0
      copies[index].lostIsExact = missing[index] != nil
    }
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
    var best: (root: Int, key: [SalvageColumn], entries: Int)?
    for index in indexes {
      guard let key = indexKey(index, copy.columns) else { continue }
      let (entries, complete) = pages.indexEntryCount(index.root)
      // As many entries as rows kept: nothing is missing (unless the kept rows are others).
      if complete && entries == kept && !copy.damaged { return [] }
      if complete && entries >= best?.entries ?? 0 { best = (index.root, key, entries) }
    }
    guard let best else { return nil }
    let (rowids, complete) = pages.indexRowids(best.root, key: best.key)
    guard complete else { return nil }
    let found = try SQLiteStore.kept(Array(rowids), in: copy.name, db, limits)
    return rowids.subtracting(found)
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
    var names = ["rowid"]
    var bound: [any SQLiteValue] = [rowid]
    for (column, value) in zip(copy.columns, values) where !column.isRowid {
      names.append(quoted(column.name))
      bound.append(value)
    }
    let marks = [String](repeating: "?", count: names.count).joined(separator: ", ")
    do throws(SQLiteError) {
      let statement = try db.cached(
        "INSERT OR IGNORE INTO main.\(quoted(copy.name)) (\(names.joined(separator: ", "))) VALUES (\(marks))")
      statement.reset()
      for (index, value) in bound.enumerated() { try statement.bind(value, at: index + 1) }
      try statement.run()
      return db.changes
    } catch {
      if let problem = salvageProblem(error, limits) { throw problem }
      return 0
    }
  }
}
