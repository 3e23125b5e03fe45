import Glibc
import ReckonSession
import SQLite

extension SQLiteStore {
  /// `salvage FILE`: what can be read of the database at `file` (one a salvage set aside, with
  /// the rows a stopped salvage did not reach, or any Reckon database) is copied as a salvage
  /// copies a damaged file, into a temporary file beside this store's, and every row this
  /// store lacks is added to it, in one transaction: a row of a table keyed by its values
  /// (settings, boxes, flashcards, bills) when no row has its key (what is here is newer), a
  /// row of a table of events (answers, game results, reviews) when no row has all its values.
  /// Nothing of `file` changes. `interrupted` stops the copy (what was copied is merged).
  public func salvage(file: String, interrupted: @escaping @Sendable () -> Bool = { false }) throws(StoreError)
    -> SalvageSummary
  {
    var file = file
    if file == "~" || file.hasPrefix("~/"), let home = getenv("HOME") {
      file = String(cString: home) + file.dropFirst()
    }
    var info = stat()
    guard stat(file, &info) == 0, access(file, R_OK) == 0 else {
      throw StoreError("it cannot be read: \(FileProblem.errno().message)")
    }
    // (A named pipe would keep the reading waiting for a writer; a folder holds no rows.)
    guard info.st_mode & S_IFMT == S_IFREG else {
      throw StoreError(info.st_mode & S_IFMT == S_IFDIR ? "it is a folder" : "it is not a plain file")
    }
    if let own = path, SQLiteStore.inode(own) == UInt64(info.st_ino) {
      throw StoreError("it is the database Reckon is using: there is nothing to add from it")
    }
    var folder = path.map { parentFolder(of: $0) } ?? ""
    if folder.isEmpty || access(folder.isEmpty ? "." : folder, W_OK) != 0 {
      folder = String(cString: getenv("TMPDIR") ?? strdup("/tmp"))
    }
    // (Named as a salvage's fresh file is: a Reckon killed while it reads leaves it, and the
    // next start removes it.)
    let temporary =
      (folder.isEmpty ? "." : folder) + "/" + SQLiteStore.baseName(of: path ?? "reckon.sqlite")
      + ".salvage-\(getpid())-merge"
    SQLiteStore.removeSalvageFiles(temporary)
    guard let marker = SalvageMarker(temporary) else {
      throw StoreError("\(temporary) could not be made: \(FileProblem.errno().message)")
    }
    defer {
      marker.remove()
      SQLiteStore.removeSalvageFiles(temporary)
    }
    var policy = salvagePolicy
    let stop = salvagePolicy.interrupted
    policy.interrupted = { interrupted() || stop() }
    let copy: SalvageCopy
    switch SQLiteStore.copyReadable(from: file, into: temporary, limits: policy.limits(), tables: modeTables) {
    case .success(let copied): copy = copied
    case .failure(.stopped(.interrupted)): throw StoreError("stopped (Ctrl-C) before anything was read: nothing added")
    case .failure(.stopped(.outOfWork)): throw StoreError("it could not be read within the salvage's work")
    case .failure(.failed(let reason)): throw StoreError("it could not be read: \(reason)")
    }
    guard copy.tables.contains(where: { $0.kept > 0 }) else {
      throw StoreError("nothing in it could be read: it is not a database of Reckon's, or all of it is damaged")
    }
    let report = SalvageReport(copy: copy, aside: file, modeRowNames: modeTables.flatMap { $0.rowNames })
    let added = try withSavingConnection { (db) throws(SQLiteError) -> [SalvageSummary.Count] in
      try SQLiteStore.merge(temporary, into: db)
    }
    return SalvageSummary(
      found: report.kept,
      added: added.map { count in
        let own = report.modeRowNames.first { $0.table == count.table }.map { ($0.one, $0.many) }
        let (one, many) = SalvageReport.tableNames[count.table] ?? own ?? (count.table, count.table)
        return SalvageSummary.Count(table: count.table, count: count.count, one: one, many: many)
      },
      stoppedEarly: copy.stoppedEarly.map {
        $0 == .interrupted ? "Ctrl-C stopped it" : "the damage would take too long to read whole"
      })
  }

  /// Adds the rows of the database at `other` (made by a salvage: today's tables, its
  /// foreign keys whole) that `db` lacks, parents before children, in one transaction; how
  /// many each table gained.
  static func merge(_ other: String, into db: Database) throws(SQLiteError) -> [SalvageSummary.Count] {
    try db.run("ATTACH DATABASE ? AS salvaged", other)
    defer { try? db.execute("DETACH DATABASE salvaged") }
    let theirs = Set(
      try db.all(
        "SELECT name FROM salvaged.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
      ) { (row) throws(SQLiteError) in try row[0] as String })
    var tables = try freshTables(db).filter { theirs.contains($0) && $0 != "modeTables" }
    // Parents first: a table whose foreign keys name a table not merged yet waits for it.
    var ordered: [String] = []
    while !tables.isEmpty {
      var progressed = false
      for table in tables {
        let parents = try db.all("SELECT DISTINCT \"table\" FROM pragma_foreign_key_list(?)", table) {
          (row) throws(SQLiteError) in try row[0] as String
        }
        guard parents.allSatisfy({ $0 == table || ordered.contains($0) || !tables.contains($0) }) else { continue }
        ordered.append(table)
        tables.removeAll { $0 == table }
        progressed = true
      }
      if !progressed {
        ordered += tables
        break
      }
    }
    var counts: [SalvageSummary.Count] = []
    try db.transaction(.immediate) { () throws(SQLiteError) in
      for table in ordered {
        let mine = try columnNames(of: table, in: "main", db)
        let other = Set(try columnNames(of: table, in: "salvaged", db))
        let columns = try salvageColumns(of: table, db)
        let rowid = columns.first { $0.isRowid }?.name
        // The columns both have; a table of events is keyed by its rowid alone, and its rows
        // are told apart by their values.
        let shared = mine.filter { other.contains($0) && $0 != rowid }.map(quoted)
        guard !shared.isEmpty else { continue }
        let list = shared.joined(separator: ", ")
        if rowid != nil {
          try db.execute(
            """
            INSERT INTO main.\(quoted(table)) (\(list))
            SELECT \(list) FROM salvaged.\(quoted(table)) EXCEPT SELECT \(list) FROM main.\(quoted(table))
            """)
        } else {
          try db.execute(
            "INSERT OR IGNORE INTO main.\(quoted(table)) (\(list)) SELECT \(list) FROM salvaged.\(quoted(table))")
        }
        if db.changes > 0 { counts.append(SalvageSummary.Count(table: table, count: db.changes, one: "", many: "")) }
      }
    }
    return counts
  }
}
