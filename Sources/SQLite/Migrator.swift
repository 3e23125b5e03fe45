/// A database's schema as a list of migrations, numbered from 1 in order, with the number
/// of the last one applied kept in `PRAGMA user_version`.
///
/// Never edit a migration that has shipped: add the next one.
public struct Migrator: Sendable {
  public struct Migration: Sendable {
    /// What it does, in a few words.
    public var name: String
    public var body: @Sendable (Database) throws(SQLiteError) -> Void

    public init(_ name: String, _ body: @escaping @Sendable (Database) throws(SQLiteError) -> Void) {
      self.name = name
      self.body = body
    }
  }

  public var migrations: [Migration]
  /// For a database whose `user_version` is 0: how many migrations some earlier bookkeeping
  /// says were applied (0 for a new database).
  public var formerVersion: @Sendable (Database) throws(SQLiteError) -> Int32

  public init(
    _ migrations: [Migration], formerVersion: @escaping @Sendable (Database) throws(SQLiteError) -> Int32 = { _ in 0 }
  ) {
    self.migrations = migrations
    self.formerVersion = formerVersion
  }

  /// The version of a database with every migration applied.
  public var latest: Int32 { Int32(migrations.count) }

  /// How many migrations the database has had: `user_version`, or the former bookkeeping's
  /// count when that is 0. It may be more than `latest` (a newer program's file).
  public func version(of database: Database) throws(SQLiteError) -> Int32 {
    let version = try database.userVersion()
    return version != 0 ? version : try formerVersion(database)
  }

  /// Applies the migrations the database lacks, up to `target` (all by default), in one
  /// `BEGIN IMMEDIATE` transaction with `user_version` set at its end: another process
  /// migrating the same file at the same moment waits for the write lock (the busy timeout),
  /// then finds the work done. A database already there costs one read of its header.
  /// Returns the version it had.
  @discardableResult
  public func migrate(_ database: Database, upTo target: Int32? = nil) throws(SQLiteError) -> Int32 {
    let target = target ?? latest
    precondition(target >= 0 && target <= latest, "no migration \(target)")
    let found = try version(of: database)
    guard found < target else { return found }
    try Self.check(found)
    return try database.transaction(.immediate) { () throws(SQLiteError) -> Int32 in
      let version = try self.version(of: database)  // again, now that no one else can write
      guard version < target else { return version }
      try Self.check(version)
      for migration in migrations[Int(version)..<Int(target)] {
        do throws(SQLiteError) {
          try migration.body(database)
        } catch {
          var error = error
          error.message = "migration \(migration.name): " + error.message
          throw error
        }
      }
      try database.setUserVersion(target)
      return version
    }
  }

  /// A version below 0 was written by no migrator: the header is damaged (it is where
  /// `user_version` is kept), and is said to be, as SQLite says of a damaged file.
  public static func check(_ version: Int32) throws(SQLiteError) {
    guard version >= 0 else {
      throw SQLiteError(
        code: .corrupt, message: "database disk image is malformed (its version, user_version, is \(version))")
    }
  }
}
