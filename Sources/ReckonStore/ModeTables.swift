import ReckonSession
import SQLite

/// A mode's own tables: their name in the database's bookkeeping (`modeTables`) and their
/// migrations, numbered from 1 apart from every other mode's, so that two modes added at
/// once never contend for a number. Never edit a migration that has shipped: add the next
/// one. A mode's file under Modes/ declares them with the SQL of its requests.
public protocol ModeTables: Sendable {
  /// The name its version is kept under: the mode's (`bill`).
  static var name: String { get }
  static var migrations: [Migrator.Migration] { get }
  /// What the user calls a row of each table, one and more than one (`bill`, `bills`): a
  /// salvage's notice counts what it kept and lost in these words.
  static var rowNames: [(table: String, one: String, many: String)] { get }
  /// SQL a salvage runs on its fresh file once the rows are in: rows whose parent row (the row
  /// a foreign key names) was lost make it again, where the mode can say what it was (a bill's
  /// lines give back the bill, dated by its start). A row still without its parent after them
  /// is left out, and counted as not read.
  static var salvageRepairs: [String] { get }
}

extension ModeTables {
  public static var rowNames: [(table: String, one: String, many: String)] { [] }
  public static var salvageRepairs: [String] { [] }

  /// Creates the profile's row unless it exists: every mode's rows belong to a profile, and a
  /// write is the first thing a new profile may save.
  public static func ensureProfile(_ name: String, at milliseconds: Int64, in db: Database) throws(SQLiteError) {
    try SQLiteStore.ensureProfile(name, at: milliseconds, in: db)
  }
}

/// The tables the database's own migrations made (`Schema`) before modes had tables of their
/// own: profiles, settings, answers and learning states, daily challenges, game results.
public enum CoreTables: ModeTables {
  public static let name = "core"
  public static let migrations: [Migrator.Migration] = []
}

/// How a read runs: SQL on the database, through a connection the store has ready (its
/// tables migrated). The conformance is the mode's file under Modes/ in ReckonStore.
public protocol SQLRead: StoreRead {
  associatedtype Tables: ModeTables
  func run(in db: Database) throws(SQLiteError) -> Answer
}

/// How a write runs: SQL on the database, inside the store's `BEGIN IMMEDIATE` transaction.
public protocol SQLWrite: StoreWrite {
  associatedtype Tables: ModeTables
  func run(in db: Database) throws(SQLiteError) -> Answer
}

/// Every mode's tables, a line each: the one place a mode's SQL is registered.
public enum RegisteredTables {
  public static let all: [any ModeTables.Type] = [
    BillTables.self,
    CardTables.self,
  ]
}

/// Brings every mode's tables to their latest version, each by its own count of migrations
/// applied, kept in the `modeTables` table (made with the first mode's tables). A mode at a
/// version newer than this program knows (a newer Reckon's file) is left as it is.
enum ModeTablesMigrator {
  static let bookkeeping = """
    CREATE TABLE IF NOT EXISTS "modeTables" ("name" TEXT PRIMARY KEY NOT NULL, "version" INTEGER NOT NULL)
    """

  /// Every table the modes' migrations make, by name (they are run on an empty database in
  /// memory): a salvage tells a known mode's tables from an unknown one's by them.
  static func tableNames(of modes: [any ModeTables.Type]) -> Set<String> {
    guard !modes.isEmpty, let db = try? Database.inMemory(), (try? Schema.migrator.migrate(db)) != nil else {
      return []
    }
    let core = Set((try? SQLiteStore.freshTables(db)) ?? [])
    guard (try? migrate(db, modes)) != nil else { return [] }
    return Set((try? SQLiteStore.freshTables(db)) ?? []).subtracting(core)
  }

  /// The version of each mode's tables in the database (0 for none), in the order of `modes`.
  static func versions(_ modes: [any ModeTables.Type], in db: Database) throws(SQLiteError) -> [Int32] {
    guard !modes.isEmpty, try db.tableExists("modeTables") else { return modes.map { _ in 0 } }
    var versions: [Int32] = []
    for mode in modes {
      versions.append(try db.value("SELECT version FROM modeTables WHERE name = ?", mode.name) ?? 0)
    }
    return versions
  }

  /// Applies what each mode lacks, up to `targets` (the latest by default; never past the
  /// migrations this program has), in one `BEGIN IMMEDIATE` transaction, so that two Reckons
  /// opening the file at once migrate it once. A file already there costs one read per mode.
  /// A version below 0 was written by no Reckon: the file is damaged, and said to be.
  static func migrate(_ db: Database, _ modes: [any ModeTables.Type], upTo targets: [Int32]? = nil) throws(SQLiteError)
  {
    let latest = modes.map { Int32($0.migrations.count) }
    let targets = targets.map { zip($0, latest).map { min($0, $1) } } ?? latest
    let lacking = { (found: [Int32]) throws(SQLiteError) -> Bool in
      for (index, version) in found.enumerated() {
        try Migrator.check(version)
        if version < targets[index] { return true }
      }
      return false
    }
    guard try lacking(try versions(modes, in: db)) else { return }
    try db.transaction(.immediate) { () throws(SQLiteError) in
      let found = try versions(modes, in: db)  // again, now that no one else can write
      guard try lacking(found) else { return }
      try db.execute(bookkeeping)
      for (index, mode) in modes.enumerated() where found[index] < targets[index] {
        for migration in mode.migrations[Int(found[index])..<Int(targets[index])] {
          do throws(SQLiteError) {
            try migration.body(db)
          } catch {
            var error = error
            error.message = "migration \(mode.name) \(migration.name): " + error.message
            throw error
          }
        }
        try db.run(
          """
          INSERT INTO modeTables (name, version) VALUES (?, ?)
          ON CONFLICT (name) DO UPDATE SET version = excluded.version
          """, mode.name, targets[index])
      }
    }
  }
}
