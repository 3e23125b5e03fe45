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

  init(milliseconds: Int64, interrupted: @escaping @Sendable () -> Bool) {
    deadline = monotonicMilliseconds() + milliseconds
    self.interrupted = interrupted
  }

  /// Why the salvage must stop now, if it must.
  var stop: Stop? {
    if interrupted() { return .interrupted }
    return monotonicMilliseconds() >= deadline ? .outOfTime : nil
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
  /// The rowids SQLite could not read (the page reader looks for them), and those under a
  /// page the page reader found damaged (SQLite may have read other rows in their place,
  /// without an error: a pointer to the wrong page).
  var gaps: [RowidGap] = []
  var lost = 0
  var lostIsExact = true

  func inGap(_ rowid: Int64) -> Bool { gaps.contains { $0.contains(rowid) } }
}

extension SQLiteStore {
  /// How many rows the SQL pass copies per statement.
  static let salvageBatch = 1000

  /// Copies what can be read of the damaged database at `damaged` into a new one at `fresh`
  /// (an empty file), which is then closed.
  ///
  /// The fresh file is made at the damaged one's version, so that each of its tables has one
  /// to go into (a file from before v6 keeps its personality results in a table of their
  /// own), and migrated to today's once the rows are in. Every table is read twice over:
  /// through SQLite first (`copyRows`: every row SQLite can read, in rowid order, passing
  /// over what it cannot), then, for the rowids it could not read, from the file's pages
  /// (`copyPages`), which also counts the rows lost. Everything runs under `limits`:
  /// SQLite's statements through its progress handler, the page reader between pages.
  /// Out of time, what was copied is kept (`ranOutOfTime`); interrupted, it fails.
  static func copyReadable(from damaged: String, into fresh: String, limits: SalvageLimits) -> Result<
    SalvageCopy, SalvageProblem
  > {
    do throws(SalvageProblem) {
      return .success(try copy(from: damaged, into: fresh, limits: limits))
    } catch {
      return .failure(error)
    }
  }

  private static func copy(from damaged: String, into fresh: String, limits: SalvageLimits) throws(SalvageProblem)
    -> SalvageCopy
  {
    let version = damagedVersion(damaged, limits: limits)
    try limits.check()
    let db: Database
    var copies: [TableCopy] = []
    var schema: [PageSalvage.SchemaRow]?
    do throws(SQLiteError) {
      db = try Database(fresh, flags: [.readWrite, .create, .uri])
      // Nothing of this file matters until it is complete and moved into place: no journal
      // on disk, no waiting for the disk.
      try db.execute("PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF")
      try Schema.migrator.migrate(db, upTo: version)
      let tables = try db.all(
        "SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
      ) { (row) throws(SQLiteError) in try row[0] as String }
      for table in tables { copies.append(TableCopy(name: table, columns: try salvageColumns(of: table, db))) }
      db.setBusyTimeout(milliseconds: 2000)
      db.setProgressHandler { limits.stop != nil }
    } catch {
      throw salvageProblem(error, limits) ?? .failed(error.description)
    }
    // Attaching reads the schema: a header or schema SQLite cannot read leaves everything to
    // the page reader.
    var attached = false
    do throws(SQLiteError) {
      try db.run("ATTACH DATABASE ? AS damaged", fileURI(damaged, query: "mode=ro"))
      attached = true
    } catch {
      if let problem = salvageProblem(error, limits) { throw problem }
    }
    var ranOutOfTime = false
    do throws(SalvageProblem) {
      // The schema as SQLite reads it, if it can: then each table SQLite knows is read
      // through it, and one it lacks (a newer table in an older file) has nothing to copy.
      schema =
        !attached
        ? nil
        : try? db.all("SELECT type, name, tbl_name, rootpage FROM damaged.sqlite_master") {
          (row) throws(SQLiteError) in
          PageSalvage.SchemaRow(
            type: try row[0], name: try row[1], table: try row[2], root: Int(try row[3] as Int64? ?? 0))
        }
      try limits.check()
      for index in copies.indices {
        guard let schema else {
          // SQLite cannot read the schema: every row is for the page reader to find.
          copies[index].gaps = [RowidGap(after: Int64.min, before: nil)]
          continue
        }
        guard schema.contains(where: { $0.type == "table" && $0.name == copies[index].name }) else { continue }
        let theirs = Set((try? columnNames(of: copies[index].name, in: "damaged", db)) ?? [])
        let shared = copies[index].columns.map(\.name).filter(theirs.contains)
        guard !shared.isEmpty else {
          copies[index].gaps = [RowidGap(after: Int64.min, before: nil)]
          continue
        }
        copies[index].gaps = try copyRows(of: copies[index].name, columns: shared, db, limits: limits)
      }
      // The page reader's rows go in one transaction. (The rows SQLite copies cannot: once a
      // statement has met the damage, SQLite refuses to commit the transaction it was in, and
      // rolls it back. Each of those statements is a transaction of its own, undone whole when
      // it fails; the file has no journal on disk and is not synced until it is complete.)
      do throws(SQLiteError) {
        try db.execute("BEGIN")
      } catch {
        throw salvageProblem(error, limits) ?? .failed(error.description)
      }
      try copyPages(from: damaged, &copies, schema: schema, db, limits: limits)
    } catch .stopped(.outOfTime) {
      ranOutOfTime = true
    } catch {
      throw error
    }
    // Finishing: no longer bounded by the clock (a fresh file's migrations and counts), only
    // by Ctrl-C.
    db.setProgressHandler { limits.interrupted() }
    do throws(SQLiteError) {
      if !db.isAutocommit { try db.execute("COMMIT") }
      if attached { try db.execute("DETACH DATABASE damaged") }
      try Schema.migrator.migrate(db)
      // Every row names a profile: one whose row was lost comes back, created at 0.
      let tables = try db.all(
        "SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
      ) { (row) throws(SQLiteError) in try row[0] as String }
      for table in tables where try columnNames(of: table, in: "main", db).contains("profile") {
        try db.execute(
          "INSERT OR IGNORE INTO main.profile (name, createdAt) SELECT DISTINCT profile, 0 FROM main.\(quoted(table))")
      }
      var report: [SalvageCopy.Table] = []
      for table in tables {
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

  /// The version of the damaged file's schema (`user_version`, or GRDB's bookkeeping), read
  /// on a connection of its own; today's when it cannot be read or is not one of ours.
  static func damagedVersion(_ path: String, limits: SalvageLimits) -> Int32 {
    let latest = Schema.migrator.latest
    guard let db = try? Database(fileURI(path, query: "mode=ro"), flags: [.readOnly, .uri]) else { return latest }
    db.setProgressHandler { limits.stop != nil }
    guard let version = try? Schema.migrator.version(of: db), version >= 1, version <= latest else { return latest }
    return version
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
    ) {
      (row) throws(SQLiteError) in
      (
        SalvageColumn(
          name: try row[0], affinity: SalvageColumn.affinity(of: try row[1]), notNull: try row[2],
          hasDefault: try row[3], isRowid: false), pk: try row[4] as Int
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

  /// Copies the rows of `table` that SQLite can read, with a rowid cursor that only moves
  /// forward; returns the ranges of rowids it could not read.
  ///
  /// Rows go in batches (the statement undone whole if it meets a page it cannot read), a
  /// batch that fails row by row, and past a row that cannot be reached the next one that can
  /// is searched for upward from there (`nextReadable`), up to the largest rowid that can be
  /// read (SQLite reads it from the right end of the table, which often works when the first
  /// pages are damaged). Every step moves the cursor past at least one rowid or ends.
  static func copyRows(of table: String, columns: [String], _ db: Database, limits: SalvageLimits)
    throws(SalvageProblem) -> [RowidGap]
  {
    let list = columns.map(quoted).joined(separator: ", ")
    let from = "FROM damaged.\(quoted(table))"
    let copy =
      "INSERT OR IGNORE INTO main.\(quoted(table)) (rowid, \(list)) SELECT rowid, \(list) \(from) "
      + "WHERE rowid > ? AND rowid <= ? ORDER BY rowid"
    let nth = "SELECT rowid \(from) WHERE rowid > ? ORDER BY rowid LIMIT 1 OFFSET \(salvageBatch - 1)"
    let last = "SELECT max(rowid) \(from) WHERE rowid > ?"
    let largest = try read("SELECT max(rowid) \(from)", Int64.min, db, limits)
    var gaps: [RowidGap] = []
    var after = Int64.min  // (no rowid of Reckon's is Int64.min: they start at 1)
    var oneByOne = 0  // rows still to copy one at a time after a batch failed
    while after < Int64.max {
      try limits.check()
      if oneByOne == 0 {
        // A batch: where it ends first (if that cannot be read, neither can the batch).
        var end: Int64?
        switch try read(nth, after, db, limits) {
        case .row(let row): end = row
        case .none:
          switch try read(last, after, db, limits) {
          case .row(let row): end = row
          case .none: return gaps
          case .unreadable: end = nil
          }
        case .unreadable: end = nil
        }
        if let end, try run(copy, after, end, db, limits) {
          after = end
          continue
        }
        oneByOne = salvageBatch
      }
      switch try read("SELECT rowid \(from) WHERE rowid >= ? ORDER BY rowid LIMIT 1", after + 1, db, limits) {
      case .row(let row):
        if !(try run(copy, after, row, db, limits)) {
          // That row alone (its overflow page, say).
          gaps.append(RowidGap(after: row - 1, before: row == Int64.max ? nil : row + 1))
        }
        after = row
        oneByOne -= 1
      case .none:
        return gaps
      case .unreadable:
        // The rows after `after` cannot be reached: find the next one that can.
        let next = try nextReadable(from, after: after, upTo: largest.row, db, limits)
        gaps.append(RowidGap(after: after, before: next))
        guard let next else { return gaps }
        after = next - 1
        oneByOne = 0
      }
    }
    return gaps
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

  /// Runs a copy of the rows after `after` up to `end`: false when it fails on the damage
  /// (and then nothing of it was copied).
  static func run(_ sql: String, _ after: Int64, _ end: Int64, _ db: Database, _ limits: SalvageLimits)
    throws(SalvageProblem) -> Bool
  {
    do throws(SQLiteError) {
      try db.run(sql, after, end)
      return true
    } catch {
      if let problem = salvageProblem(error, limits) { throw problem }
      return false
    }
  }

  /// The first rowid SQLite can read past `after`, when the row after `after` cannot be
  /// reached; nil when none can. Probes upward from `after` in steps that double until one
  /// reads (never past `upTo`, the largest rowid read, when known), then bisects between the
  /// last that failed and the first that read: at most about 128 probes, each a seek.
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
      let found = try read(probe, at, db, limits)
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
      let found = try read(probe, middle, db, limits)
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
    from damaged: String, _ copies: inout [TableCopy], schema sqlSchema: [PageSalvage.SchemaRow]?, _ db: Database,
    limits: SalvageLimits
  ) throws(SalvageProblem) {
    guard let file = DatabaseFile(path: damaged, stop: { limits.stop != nil }) else {
      try limits.check()
      for index in copies.indices where !copies[index].gaps.isEmpty { copies[index].lostIsExact = false }
      return
    }
    var pages = PageSalvage(file: file, limits: limits)
    let ownSchema = pages.schema()  // (walks the schema's own pages too)
    let schema = sqlSchema ?? ownSchema
    var trees: [String: PageSalvage.Tree] = [:]
    for row in schema where row.type == "table" && trees[row.name] == nil {
      trees[row.name] = pages.walkTable(row.root)
    }
    try limits.check()
    var inserted = [Int](repeating: 0, count: copies.count)
    // Every leaf of each table's tree: the rows not kept yet.
    for index in copies.indices {
      guard let tree = trees[copies[index].name] else { continue }
      for range in tree.damaged {
        copies[index].gaps.append(
          RowidGap(after: range.after ?? Int64.min, before: range.upTo.flatMap { $0 == Int64.max ? nil : $0 + 1 }))
      }
      let copy = copies[index]
      for leaf in tree.leaves {
        try limits.check()
        var failure: SalvageProblem?
        let rows = pages.rows(of: leaf.page, in: leaf) { rowids in
          do throws(SalvageProblem) {
            return try kept(rowids, in: copy.name, db, limits)
          } catch {
            failure = error
            return Set(rowids)
          }
        }
        if let failure { throw failure }
        for (rowid, values) in rows ?? [] where SalvageColumn.fits(values, copy.columns) {
          inserted[index] += try insert(rowid, values, into: copy, db, limits)
        }
      }
    }
    // The leaves no tree reaches any more, when a table's tree is damaged (or its root is
    // not known): each goes to the one table whose damaged range holds all its rowids and
    // whose columns fit its rows.
    let homeless = copies.indices.filter { index in
      trees[copies[index].name].map { !$0.damaged.isEmpty } ?? !copies[index].gaps.isEmpty
    }
    if !homeless.isEmpty {
      pages.markFreelist()
      let names = Set(schema.map(\.name) + copies.map(\.name))
      for number in pages.unreachedLeaves() {
        try limits.check()
        guard let rows = pages.rows(of: number, in: nil), !rows.isEmpty, !isSequence(rows, names: names) else {
          continue
        }
        var homes: [(Int, [(Int64, [RecordValue])])] = []
        for index in homeless {
          let fitting = rows.filter { SalvageColumn.fits($0.1, copies[index].columns) }
          guard !fitting.isEmpty, fitting.count * 2 >= rows.count else { continue }
          if let tree = trees[copies[index].name],
            !tree.damaged.contains(where: { range in fitting.allSatisfy { range.holds($0.0) } })
          {
            continue
          }
          homes.append((index, fitting))
        }
        guard homes.count == 1, let (index, fitting) = homes.first else { continue }
        for (rowid, values) in fitting {
          inserted[index] += try insert(rowid, values, into: copies[index], db, limits)
        }
      }
    }
    // What was lost, where anything was amiss: the rowids an index names with no row kept.
    for index in copies.indices where !copies[index].gaps.isEmpty || inserted[index] > 0 {
      var known = Set<Int64>()
      var complete = false
      for row in schema where row.type == "index" && row.table == copies[index].name && row.root > 0 {
        let (rowids, whole) = pages.indexRowids(row.root)
        known.formUnion(rowids)
        complete = complete || whole
      }
      try limits.check()
      copies[index].lost = known.count - (try kept(Array(known), in: copies[index].name, db, limits)).count
      copies[index].lostIsExact = complete
    }
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
  static func isSequence(_ rows: [(Int64, [RecordValue])], names: Set<String>) -> Bool {
    rows.allSatisfy { row in
      guard row.1.count == 2, case .text(let name) = row.1[0], case .integer = row.1[1] else { return false }
      return names.contains(String(decoding: name, as: UTF8.self))
    }
  }

  /// Inserts a row read from a page (its values in the table's column order; the rowid's
  /// own column is the rowid), unless one with its rowid or key is there; how many went in.
  static func insert(
    _ rowid: Int64, _ values: [RecordValue], into copy: TableCopy, _ db: Database, _ limits: SalvageLimits
  ) throws(SalvageProblem) -> Int {
    var names = ["rowid"]
    var bound: [any SQLiteValue] = [rowid]
    for (column, value) in zip(copy.columns, values) where !column.isRowid {
      names.append(quoted(column.name))
      bound.append(value.sqliteValue)
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
