import Glibc
import ReckonCore
import ReckonSession
import SQLite
import Synchronization

/// The session's store in one SQLite file: WAL mode and a busy timeout, so several Reckon
/// processes can share it; each write is its own `BEGIN IMMEDIATE` transaction.
///
/// `SQLiteStore(path:)` (the executable's) opens the database only when it is needed and
/// creates it only when something is saved: a script that saves nothing leaves no file, and
/// the settings (which every start-up may need) are read without opening it at all
/// (`quickSettings`). `SQLiteStore.open(path:)` opens it at once.
///
/// Opening never fails: a database that is not one is moved aside (with a timestamp) and a
/// fresh one started; a folder that cannot be written gives a read-only store, or one in
/// memory; a folder or file that another user owns or can write to, one in memory
/// (`PrivateFiles`). Either way `warnings` says what happened, once, in words for the user.
public final class SQLiteStore: Store, Sendable {
  /// The file, or nil for a store in memory from the start.
  let file: String?
  private let state: Mutex<State>
  /// Whether the store may have notices not taken yet (it has been opened since they were
  /// last taken).
  private let mayHaveNotices: Atomic<Bool>
  /// Whether a checkpoint is running in the background.
  let checkpointing = Atomic<Bool>(false)
  /// When the file was last tried again for writing (monotonic milliseconds).
  private let lastReopen = Atomic<Int64>(Int64.min / 2)
  /// Whether the session is ending (`willEnd`).
  private let exiting = Atomic<Bool>(false)
  /// How a damaged database is salvaged (its time, what stops it).
  let salvagePolicy: SalvagePolicy
  /// The modes' own tables, migrated whenever the file is opened for writing (`RegisteredTables.all`;
  /// a test adds a mode of its own).
  let modeTables: [any ModeTables.Type]
  /// A fault every write meets before it reaches SQLite, while it is set: the tests' full
  /// disk (`failWrites(with:)`). Reads are not affected.
  private let writeFault = Mutex<StoreError?>(nil)

  enum State {
    /// Not opened yet (a lazy store).
    case waiting
    case open(Connection)
  }

  /// An open database and what opening it said. Used only under the store's lock (`state`),
  /// by one thread at a time, as its database needs.
  final class Connection: @unchecked Sendable {
    let db: Database
    /// The file, or nil when nothing is being saved (in memory).
    let path: String?
    let warnings: [String]
    /// What has not been said yet: the warnings, until `takeNotices()` takes them.
    var notices: [String]
    /// Writes since the last checkpoint this Reckon started (none for a read-only store).
    var writes = 0
    let canCheckpoint: Bool
    /// Why nothing can be saved (`the disk is full`), when this is a stand-in for a file that
    /// could not be opened for writing (read-only, or in memory): writes fail with it, and
    /// each write first tries the file again. Nil when writes go where they should.
    let cannotSave: String?
    /// Whether the last write found another Reckon holding the write lock: until one goes
    /// through, writes try once rather than wait.
    var lockWasHeld = false
    /// The file's inode when it was opened: another Reckon that salvaged a damaged database
    /// put a fresh file at the name, and this connection would go on with the old one.
    let inode: UInt64?
    /// A stand-in for a damaged file whose salvage Ctrl-C stopped: a read fails with
    /// `cannotSave` (it would find nothing) and the next one opens the file again, salvaging
    /// it; a write is kept by the session, and tried again as on a full disk.
    var salvageStopped = false

    init(
      _ db: Database, path: String?, warnings: [String], canCheckpoint: Bool = false, cannotSave: String? = nil
    ) {
      self.db = db
      self.path = path
      self.warnings = warnings
      self.notices = warnings
      self.canCheckpoint = canCheckpoint && path != nil && cannotSave == nil
      self.cannotSave = cannotSave
      self.inode = cannotSave == nil ? path.flatMap(SQLiteStore.inode) : nil
    }

    /// Whether the file at the name is no longer the one opened (moved aside by a salvage).
    var wasReplaced: Bool {
      guard let inode, let path else { return false }
      return SQLiteStore.inode(path) != inode
    }
  }

  /// A store for the database at `path`, opened when first needed. A damaged database is
  /// salvaged as `salvage` says (the executable's stops on Ctrl-C).
  public init(
    path: String, salvage: SalvagePolicy = SalvagePolicy(), tables: [any ModeTables.Type] = RegisteredTables.all
  ) {
    file = path
    state = Mutex(.waiting)
    mayHaveNotices = Atomic(false)
    salvagePolicy = salvage
    modeTables = tables
  }

  /// A store already open on `connection`; `file` is the database's path when the
  /// connection is a stand-in for it (in memory, when it could not be opened).
  init(
    _ connection: Connection, file: String? = nil, salvage: SalvagePolicy = SalvagePolicy(),
    tables: [any ModeTables.Type] = RegisteredTables.all
  ) {
    self.file = file ?? connection.path
    state = Mutex(.open(connection))
    mayHaveNotices = Atomic(true)
    salvagePolicy = salvage
    modeTables = tables
  }

  /// Opens or creates the database at `path` now (its folder is created 0700, the file
  /// 0600). `now` (seconds since 1970) names a damaged file moved aside.
  public static func open(
    path: String, now: time_t? = nil, patience: Int64 = 15_000, salvage: SalvagePolicy = SalvagePolicy(),
    tables: [any ModeTables.Type] = RegisteredTables.all
  ) -> SQLiteStore {
    SQLiteStore(
      connect(path: path, now: now, patience: patience, salvage: salvage, tables: tables), file: path,
      salvage: salvage, tables: tables)
  }

  /// A store that keeps nothing after the process ends.
  public static func inMemory(warning: String? = nil, tables: [any ModeTables.Type] = RegisteredTables.all)
    -> SQLiteStore
  {
    SQLiteStore(memoryConnection(warning: warning, tables: tables), tables: tables)
  }

  /// The file being saved to: nil when the store is in memory (from the start, or because
  /// the file could not be opened).
  public var path: String? {
    state.withLock { state in
      switch state {
      case .waiting: file
      case .open(let connection): connection.path
      }
    }
  }

  /// What opening said (nothing before it is opened).
  public var warnings: [String] {
    state.withLock { state in
      switch state {
      case .waiting: []
      case .open(let connection): connection.warnings
      }
    }
  }

  /// Whether the database has been opened (start-up should not need to).
  var isOpen: Bool {
    state.withLock { state in
      if case .open = state { return true }
      return false
    }
  }

  var fileExists: Bool { file.map { access($0, F_OK) == 0 } ?? true }

  // MARK: Opening

  /// The open connection, opening (and creating) the database if need be.
  private func connection(_ state: inout State) -> Connection {
    if case .open(let connection) = state { return connection }
    let connection =
      file.map {
        SQLiteStore.connect(path: $0, now: nil, patience: 15_000, salvage: salvagePolicy, tables: modeTables)
      } ?? SQLiteStore.memoryConnection(tables: modeTables)
    state = .open(connection)
    mayHaveNotices.store(true, ordering: .releasing)
    return connection
  }

  static func connect(
    path: String, now: time_t?, patience: Int64, salvage policy: SalvagePolicy, tables: [any ModeTables.Type]
  ) -> Connection {
    let folder = parentFolder(of: path)
    var warnings: [String]
    do {
      warnings = try PrivateFiles.prepareFolder(folder)
      try createPrivateFile(path)
      for file in [path, path + "-wal", path + "-shm"] { warnings += try PrivateFiles.checkFile(file) }
    } catch  where error.unsafe {
      return memoryConnection(
        warning: "\(error.message), so \(path) is not used: progress and settings will not be saved", tables: tables)
    } catch {
      return cannotWrite(path, "cannot write to \(folder)", because: error.message, tables: tables)
    }
    warnings += PrivateFiles.repairLeftovers(of: path)
    cleanSalvageLeftovers(of: path)
    let deadline = monotonicMilliseconds() + patience
    var movedAside = false
    var attempt = 0
    while true {
      attempt += 1
      let opened = inode(path)
      do {
        // Not in the middle of a salvage's move (it holds the folder's lock while it moves
        // files): SQLite finds the database and its -wal together.
        let lock = FolderLock(folder.isEmpty ? "." : folder, exclusive: false, patience: 10_000)
        defer { lock?.release() }
        return Connection(try openWritable(path, tables: tables), path: path, warnings: warnings, canCheckpoint: true)
      } catch  where isCorruption(error) && !movedAside {
        // Another Reckon may have replaced the damaged file already: never move its fresh one.
        guard inode(path) == opened else { continue }
        // What can be read goes into a fresh file (a damaged header or schema, say, which
        // SQLite cannot open at all).
        switch salvage(path, policy: policy, now: now, tables: tables) {
        case .salvaged(let report):
          movedAside = true
          warnings.append(report.notice(path: path, damage: error.message))
          continue
        case .replacedElsewhere:
          guard monotonicMilliseconds() < deadline else { break }
          continue
        case .stopped:
          let standIn = memoryConnection(cannotSave: salvageStopped(path, damage: error.message), tables: tables)
          standIn.salvageStopped = true
          return standIn
        case .failed:
          break
        }
        // The salvage could not be made: the damaged file is moved aside, and a fresh one started.
        do throws(FileProblem) {
          let lock = FolderLock(folder.isEmpty ? "." : folder, exclusive: true, patience: 5000)
          defer { lock?.release() }
          guard inode(path) == opened else { continue }
          // Never over a file already there: a name that is taken gives the next one at once.
          let aside = try moveAside(path, toAFreeNameFrom: path + ".corrupt-" + timestamp(now ?? time(nil)))
          try createPrivateFile(path)
          movedAside = true
          warnings.append(
            "\(path) was damaged (\(error.message)); it was moved to \(aside) and a fresh one started")
        } catch {
          // Another Reckon may have moved it aside first: open what is there now.
          guard monotonicMilliseconds() < deadline,
            access(path, F_OK) == 0 || (try? createPrivateFile(path)) != nil
          else {
            return memoryConnection(
              warning: "\(path) is damaged and could not be replaced: nothing can be saved for now" + keptUntil,
              cannotSave: "\(path) is damaged and could not be replaced", tables: tables)
          }
          usleep(20_000)
        }
      } catch  where isPassing(error, attempt: attempt) && monotonicMilliseconds() < deadline {
        usleep(useconds_t(min(attempt, 10) * 20_000))
      } catch {
        return cannotWrite(
          path, "cannot open \(path) for writing", because: PrivateFiles.whyNotWritable(path) ?? describe(error),
          tables: tables)
      }
    }
  }

  /// The database, in WAL mode, migrated (the modes' tables too), with a 10 s busy timeout
  /// (another Reckon may be writing: wait, don't fail) and foreign keys on.
  static func openWritable(_ path: String, tables: [any ModeTables.Type]) throws(SQLiteError) -> Database {
    let db = try Database(path)
    // A file this user may not write is opened read-only, silently: every write would fail.
    if db.isReadOnly { throw SQLiteError(code: .readOnly, message: "attempt to write a readonly database") }
    db.setBusyTimeout(milliseconds: 10_000)
    try db.enableWAL()
    // Closing leaves an empty -wal rather than deleting the files by name (see
    // `keepWALFilesOnClose`): a connection to a file moved aside must not delete the fresh
    // file's. The start-up read takes an empty -wal as none.
    try db.keepWALFilesOnClose()
    try db.execute("PRAGMA journal_size_limit = 4194304")
    try db.execute("PRAGMA foreign_keys = ON")
    try checkPages(db)
    try Schema.migrator.migrate(db)
    try ModeTablesMigrator.migrate(db, tables)
    return db
  }

  /// The most of SQLite's virtual machine's steps (in thousands) the check at opening may take:
  /// about 5,000 pages, a 20 MB database, some 50 ms.
  static let checkBudget = 5_000

  /// SQLite's `quick_check` of every page at opening, within `checkBudget`: damage that no
  /// page a command reads shows (a table's leaf lost from sight behind a damaged pointer, so
  /// that `stats` counts 16 answers of 605 at every start, with no error) is found, and the
  /// file salvaged, before anything is read or written. Throws `SQLITE_CORRUPT` with the
  /// check's first finding; a file too large to check within the budget is not checked (the
  /// damage is found when a page is read).
  static func checkPages(_ db: Database) throws(SQLiteError) {
    var steps = 0
    db.setProgressHandler {
      steps += 1
      return steps > checkBudget
    }
    defer { db.setProgressHandler(nil) }
    let found: String?
    do {
      found = try db.value("PRAGMA quick_check(1)", as: String?.self) ?? nil
    } catch  where error.is(.interrupt) {
      return
    }
    guard let found, found != "ok" else { return }
    // "*** in database main ***" and a line: the line.
    let line = found.split(separator: "\n").last.map(String.init) ?? found
    throw SQLiteError(code: .corrupt, message: "SQLite's check of its pages found damage: " + line)
  }

  /// For a database that cannot be written: read-only if there is one to read, else in
  /// memory; the warning says why (a full disk rather than the error it caused).
  static func cannotWrite(
    _ path: String, _ what: String, because reason: String, tables: [any ModeTables.Type]
  ) -> Connection {
    let folder = parentFolder(of: path)
    let cause =
      holdsNoFiles(folder)
      ? "\(folder) is not a place for files: it is on one of the kernel's file systems (as /proc and /sys are)"
      : diskFull(folder) ? "the disk is full" : reason
    let why = "\(what) (\(cause))"
    return readOnlyConnection(path, warning: why, cannotSave: cause)
      ?? memoryConnection(
        warning: why + ": nothing can be saved for now" + keptUntil, cannotSave: cause, tables: tables)
  }

  /// The saved database, only to read, when it cannot be written (a full disk, a read-only
  /// folder): what the user has done can still be shown, and new progress is kept by the
  /// session until it can be saved. Nil when there is none or it cannot be read either.
  static func readOnly(_ path: String, warning: String, tables: [any ModeTables.Type] = RegisteredTables.all)
    -> SQLiteStore?
  {
    guard
      let connection = readOnlyConnection(path, warning: warning, cannotSave: "the database cannot be written here")
    else { return nil }
    return SQLiteStore(connection, tables: tables)
  }

  /// Read as `immutable` if need be: a read-only folder cannot hold WAL's -shm file.
  static func readOnlyConnection(_ path: String, warning: String, cannotSave: String) -> Connection? {
    var info = stat()
    guard stat(path, &info) == 0, info.st_size > 0 else { return nil }
    for immutable in [false, true] {
      guard !immutable || !needsEscaping(path),
        let db = try? Database(
          immutable ? "file:" + path + "?immutable=1" : path, flags: immutable ? [.readOnly, .uri] : .readOnly)
      else { continue }
      db.setBusyTimeout(milliseconds: 10_000)
      guard let version = try? Schema.migrator.version(of: db), version >= Schema.migrator.latest else { continue }
      return Connection(
        db, path: path,
        warnings: [warning + ": your saved progress can be read, but nothing new can be saved for now" + keptUntil],
        cannotSave: cannotSave)
    }
    return nil
  }

  /// What a stand-in's warning adds: the session keeps what cannot be saved.
  static let keptUntil = " (Reckon keeps what you do, and saves it once it can)"

  /// What a salvage stopped by Ctrl-C says: nothing changed, and it is tried again.
  static func salvageStopped(_ path: String, damage: String? = nil) -> String {
    "\(path) is damaged\(damage.map { " (\($0))" } ?? ""), and its salvage was stopped (Ctrl-C): nothing was "
      + "changed, and Reckon tries again the next time it needs the file"
  }

  static func memoryConnection(
    warning: String? = nil, cannotSave: String? = nil, tables: [any ModeTables.Type]
  ) -> Connection {
    // An in-memory database cannot fail to open; migrations on an empty one cannot fail either.
    let db = try! Database.inMemory()
    try! db.execute("PRAGMA foreign_keys = ON")
    try! Schema.migrator.migrate(db)
    try! ModeTablesMigrator.migrate(db, tables)
    return Connection(db, path: nil, warnings: warning.map { [$0] } ?? [], cannotSave: cannotSave)
  }

  /// Characters a `file:` URI would read as its own.
  static func needsEscaping(_ path: String) -> Bool { path.utf8.contains { $0 == 0x3F || $0 == 0x23 || $0 == 0x25 } }

  /// Whether the file system holding `folder` has no room left for an ordinary user. A file
  /// system with no blocks at all is not full (/proc, or a tmpfs without a size, say 0 of 0).
  static func diskFull(_ folder: String) -> Bool {
    var info = statvfs()
    return statvfs(folder, &info) == 0 && info.f_blocks > 0 && info.f_bavail == 0
  }

  /// Whether `folder` is on a file system with no room for files at all, neither blocks nor
  /// inodes: the kernel's (/proc, /sys), which reports 0 of 0 free, not a full disk.
  /// (A folder that is not there yet is on the file system of the nearest one that is.)
  static func holdsNoFiles(_ folder: String) -> Bool {
    var info = statvfs()
    var folder = folder
    while statvfs(folder, &info) != 0 {
      guard errno == ENOENT, folder != "/", !folder.isEmpty else { return false }
      folder = parentFolder(of: folder)
    }
    return info.f_blocks == 0 && info.f_files == 0
  }

  /// The file's inode number, to tell a file from the one that replaced it.
  static func inode(_ path: String) -> UInt64? {
    var info = stat()
    return stat(path, &info) == 0 ? UInt64(info.st_ino) : nil
  }

  /// Whether `error` says the file is damaged: a page SQLite cannot read, a header it does
  /// not know, or a header whose schema format or text encoding no SQLite writes ("unsupported
  /// file format": Reckon never writes one, so it is damage there, and was tried again for a
  /// second and a half at every open, then left unsaved).
  static func isCorruption(_ error: SQLiteError) -> Bool {
    error.is(.notADatabase) || error.is(.corrupt) || (error.is(.error) && error.message == "unsupported file format")
  }

  /// Errors another Reckon opening the same file at the same moment can cause: a lock, or
  /// (SQLITE_ERROR) a schema it is changing. Worth trying again.
  static func isPassing(_ error: SQLiteError, attempt: Int) -> Bool {
    if error.is(.busy) || error.is(.locked) { return true }
    return error.is(.error) && attempt <= 10  // a schema this Reckon cannot read stays an error
  }

  // MARK: The start-up read

  /// A profile's settings, read on one read-only connection with no migration check: what
  /// start-up needs, for a fraction of opening the store. With no -wal file (the last
  /// Reckon checkpointed and closed) every change is in the database file, so it is read as
  /// `immutable`: no -wal and -shm files are created and no lock is taken, which is most of
  /// the cost. A writer starting at that very moment could give a stale or failed read.
  /// Anything unexpected (no `setting` table yet, a damaged file, a lock) gives nil, and the
  /// caller opens the store properly, which knows how to deal with it (so does a file or
  /// folder that other users could get at).
  static func quickSettings(path: String, profile: String) -> SavedSettings? {
    // A file or folder that opening would tighten or refuse is left to it, which says so.
    guard PrivateFiles.fileIsPrivate(path), PrivateFiles.folderIsPrivate(parentFolder(of: path)) else { return nil }
    let walEmpty = walIsEmpty(path)
    if walEmpty, let settings = settingsFromPages(path: path, profile: profile) { return settings }
    let immutable = walEmpty && !needsEscaping(path)
    guard
      let db = try? Database(
        immutable ? "file:" + path + "?immutable=1" : path, flags: immutable ? [.readOnly, .uri] : .readOnly)
    else { return nil }
    db.setBusyTimeout(milliseconds: 2000)
    // A statement of its own: the connection's cache (a dictionary) is not needed for one read.
    guard let statement = try? db.prepare(settingsQuery), (try? statement.bind(profile)) != nil else { return nil }
    return try? settings(from: statement)
  }

  static let settingsQuery = "SELECT key, value FROM setting WHERE profile = ?"

  /// Whether the database has no -wal file, or an empty one (its last Reckon checkpointed
  /// and closed): then every change is in the database file itself.
  static func walIsEmpty(_ path: String) -> Bool {
    var info = stat()
    return stat(path + "-wal", &info) != 0 || info.st_size == 0
  }

  /// The saved profiles' names, in the order `profile` lists them (`reckon --list-profiles`,
  /// for shell completion), read as `quickSettings` reads: read-only, no migration, nothing
  /// created. No database (or one with no profile yet) gives none; a file that cannot be
  /// read (not a database, no permission) throws. A name `--profile` would not take (only a
  /// damaged or hand-edited file can hold one) is left out, so that every name listed is one
  /// word of letters, digits, `-`, `_` and `.`, which a shell can complete as it is.
  public static func profileNames(path: String) throws(StoreError) -> [String] {
    if access(path, F_OK) != 0, errno == ENOENT || errno == ENOTDIR { return [] }
    do throws(SQLiteError) {
      let immutable = walIsEmpty(path) && !needsEscaping(path)
      let db = try Database(
        immutable ? "file:" + path + "?immutable=1" : path, flags: immutable ? [.readOnly, .uri] : .readOnly)
      db.setBusyTimeout(milliseconds: 2000)
      let tables = "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'profile'"
      guard try db.value(tables, as: Int.self) == 1 else { return [] }
      let names = try db.all("SELECT name FROM profile ORDER BY name COLLATE NOCASE, name") {
        (row) throws(SQLiteError) in try row[0] as String?
      }
      return names.compactMap { $0 }.filter { Profiles.problem(with: $0) == nil }
    } catch {
      throw StoreError(error.message)
    }
  }

  static func settings(from statement: SQLite.Statement) throws(SQLiteError) -> SavedSettings {
    var settings = SavedSettings()
    for (key, value) in try statement.all({ (row) throws(SQLiteError) in (try row[0] as String, try row[1] as String) })
    {
      settings[key] = value
    }
    return settings
  }

  // MARK: Store

  public func prepareToSave() {
    state.withLock { state in _ = connection(&state) }
  }

  /// What the store has to say that has not been taken yet: what opening found.
  public func takeNotices() -> [String] {
    // Most lines open nothing and find nothing to say: a 100,000-line script should not take
    // a lock for each.
    guard mayHaveNotices.exchange(false, ordering: .acquiring) else { return [] }
    return state.withLock { state in
      guard case .open(let connection) = state else { return [] }
      defer { connection.notices = [] }
      return connection.notices
    }
  }

  public var mayHaveSavedData: Bool { isOpen || fileExists }

  // MARK: Reading and writing

  /// Runs `body` on the database, opening it if there is one; `ifNothingSaved` when there is
  /// no database yet (nothing is created for a read). A database found damaged on the way is
  /// salvaged into a fresh file (`salvage`), and `body` runs again on that.
  func read<T: Sendable>(ifNothingSaved empty: T, _ body: (Database) throws(SQLiteError) -> T) throws(StoreError) -> T {
    try state.withLock { (state) throws(StoreError) -> T in
      if case .waiting = state, !fileExists { return empty }
      var outcome = try readOnce(&state, body)
      if case .failure(let error) = outcome, try salvage(&state, because: error) {
        outcome = try readOnce(&state, body)
      }
      return try outcome.mapError { StoreError(SQLiteStore.describe($0)) }.get()
    }
  }

  /// `body` on the open connection (and no reference to it kept after, so that a salvage can
  /// close it).
  private func readOnce<T>(_ state: inout State, _ body: (Database) throws(SQLiteError) -> T) throws(StoreError)
    -> Result<T, SQLiteError>
  {
    if case .open(let open) = state, open.wasReplaced || open.salvageStopped { state = .waiting }  // open it again
    let connection = connection(&state)
    if connection.salvageStopped, let reason = connection.cannotSave { throw StoreError(reason) }
    let db = connection.db
    do throws(SQLiteError) {
      return .success(try body(db))
    } catch {
      return .failure(error)
    }
  }

  /// Runs `body` on the connection that saves, outside any transaction (it makes its own),
  /// holding the store's lock: for work that must `ATTACH` another file (`salvage(file:)`). A
  /// store that cannot save now throws why.
  func withSavingConnection<T: Sendable>(_ body: (Database) throws(SQLiteError) -> T) throws(StoreError) -> T {
    if let fault = writeFault.withLock({ $0 }) { throw fault }
    return try state.withLock { (state) throws(StoreError) -> T in
      if case .open(let open) = state, open.wasReplaced || open.salvageStopped { state = .waiting }
      let connection = connection(&state)
      if let reason = connection.cannotSave { throw StoreError(reason, isKnown: !connection.salvageStopped) }
      do throws(SQLiteError) {
        return try body(connection.db)
      } catch {
        throw StoreError(SQLiteStore.describe(error), isLasting: SQLiteStore.isLasting(error))
      }
    }
  }

  /// Runs `body` on the database, opening (or creating) it if need be: for tests.
  func withDatabase<T: Sendable>(_ body: (Database) throws(SQLiteError) -> T) throws(SQLiteError) -> T {
    try state.withLock { (state) throws(SQLiteError) -> T in try body(connection(&state).db) }
  }

  /// Runs `body` in one `BEGIN IMMEDIATE` transaction, creating the database if need be:
  /// when this returns, what it wrote is committed. A database found damaged is salvaged
  /// into a fresh file, and the write made there.
  func write<T: Sendable>(_ body: (Database) throws(SQLiteError) -> T) throws(StoreError) -> T {
    if let fault = writeFault.withLock({ $0 }) { throw fault }
    let (result, checkpoint) = try state.withLock { (state) throws(StoreError) -> (T, String?) in
      var outcome = try writeOnce(&state, body)
      if case .failure(let error) = outcome, try salvage(&state, because: error) {
        outcome = try writeOnce(&state, body)
      }
      if case .failure(let error) = outcome, SQLiteStore.isOutOfSpace(error), case .open(let connection) = state {
        // What the failed transaction wrote stays in the -wal (a rollback does not shrink
        // it), holding the space it took until Reckon ends, so every later save fails too:
        // the -wal is checkpointed and cut to nothing at once (when no other Reckon is
        // reading), and the profile is as it was before the write, its files included.
        _ = try? connection.db.checkpoint(.truncate)
      }
      return try outcome.mapError { StoreError(SQLiteStore.describe($0), isLasting: SQLiteStore.isLasting($0)) }.get()
    }
    if let checkpoint { checkpointInBackground(checkpoint) }
    return result
  }

  /// Makes every write fail with `error` (nil: no more), as a full disk does, so that a test
  /// of what the session does then runs on this store, whatever ports it has.
  public func failWrites(with error: StoreError?) {
    writeFault.withLock { $0 = error }
  }

  // MARK: What modes keep

  public func read<Request: StoreRead>(_ request: Request) throws(StoreError) -> Request.Answer {
    guard let sql = request as? any SQLRead else { throw SQLiteStore.noSQL(for: request) }
    return try run(sql) as! Request.Answer
  }

  @discardableResult
  public func write<Request: StoreWrite>(_ request: Request) throws(StoreError) -> Request.Answer {
    guard let sql = request as? any SQLWrite else { throw SQLiteStore.noSQL(for: request) }
    return try run(sql) as! Request.Answer
  }

  private func run<Request: SQLRead>(_ request: Request) throws(StoreError) -> Request.Answer {
    try checkRegistered(Request.Tables.self)
    let empty = request.nothingSaved
    return try read(ifNothingSaved: empty) { (db) throws(SQLiteError) in
      // A file opened only to read (a full disk, a read-only folder) was not migrated: one
      // older than the mode's tables has nothing of the mode to show.
      if db.isReadOnly, ObjectIdentifier(Request.Tables.self) != ObjectIdentifier(CoreTables.self),
        try ModeTablesMigrator.versions([Request.Tables.self], in: db)[0] < Request.Tables.migrations.count
      {
        return empty
      }
      return try request.run(in: db)
    }
  }

  private func run<Request: SQLWrite>(_ request: Request) throws(StoreError) -> Request.Answer {
    try checkRegistered(Request.Tables.self)
    return try write { (db) throws(SQLiteError) in try request.run(in: db) }
  }

  /// A mode's request whose tables are not in `RegisteredTables.all` would find none: a mistake in
  /// the program, said as such rather than as SQLite's "no such table".
  private func checkRegistered(_ tables: any ModeTables.Type) throws(StoreError) {
    let id = ObjectIdentifier(tables)
    guard id == ObjectIdentifier(CoreTables.self) || modeTables.contains(where: { ObjectIdentifier($0) == id }) else {
      throw StoreError(
        "Reckon cannot keep this: the tables '\(tables.name)' are not registered (RegisteredTables.all)",
        isLasting: true)
    }
  }

  /// A request with no SQL to run it (no conformance in a file under ReckonStore/Modes).
  static func noSQL(for request: some StoreRequest) -> StoreError {
    StoreError("Reckon cannot keep this: nothing in the store runs \(type(of: request))", isLasting: true)
  }

  /// One try at a write: its result and the file to checkpoint after it, if it is time; or
  /// what SQLite said. A stand-in that still cannot save throws.
  private func writeOnce<T>(_ state: inout State, _ body: (Database) throws(SQLiteError) -> T) throws(StoreError)
    -> Result<(T, String?), SQLiteError>
  {
    var connection = connection(&state)
    if let reason = connection.cannotSave {
      // A stand-in for a file that could not be written (a full disk, a read-only folder
      // at start-up): try the file again, and if it still cannot be written, fail, so that
      // the session keeps the write for the next try.
      guard let file, let reopened = reopen(file, in: &state) else {
        throw StoreError(reason, isKnown: !connection.salvageStopped)
      }
      connection = reopened
    }
    let db = connection.db
    // Another Reckon may hold the write lock (a long transaction, a stuck process): wait a
    // moment, not the opening's 10 s, and once it has been found held, not at all, so
    // that a drill goes on at once and the session keeps the answer for the next save.
    db.setBusyTimeout(milliseconds: exiting.load(ordering: .relaxed) ? 10_000 : connection.lockWasHeld ? 0 : 500)
    let result: T
    do throws(SQLiteError) {
      result = try db.transaction(.immediate) { () throws(SQLiteError) -> T in
        // Holding the write lock: if a salvage put a fresh file at the name, this write
        // belongs there, not in the file moved aside (a salvage holds the lock while it moves).
        if connection.wasReplaced { throw SQLiteStore.replaced }
        return try body(db)
      }
      connection.lockWasHeld = false
    } catch {
      if error == SQLiteStore.replaced, let file {
        // Open the file now at the name, and write there.
        state = .open(
          SQLiteStore.connect(path: file, now: nil, patience: 15_000, salvage: salvagePolicy, tables: modeTables))
        mayHaveNotices.store(true, ordering: .releasing)
        return try writeOnce(&state, body)
      }
      if error.is(.busy) || error.is(.locked) { connection.lockWasHeld = true }
      return .failure(error)
    }
    guard connection.canCheckpoint else { return .success((result, nil)) }
    connection.writes += 1
    guard connection.writes >= SQLiteStore.writesPerCheckpoint else { return .success((result, nil)) }
    connection.writes = 0
    return .success((result, connection.path))
  }

  /// What a write throws when the file at the name is no longer the one it has open.
  static let replaced = SQLiteError(code: .cantOpen, message: "the database was replaced by a fresh one")

  /// The file of the open connection, if it is one that can be salvaged (not a stand-in).
  private func salvageablePath(_ state: State) -> String? {
    guard case .open(let connection) = state, connection.cannotSave == nil else { return nil }
    return connection.path
  }

  /// After `error`: when it says the open database is damaged (a page that cannot be read),
  /// copies what can be read into a fresh file, moves the damaged one aside and opens the
  /// fresh one, queueing a notice that says what was kept and lost. True when the caller
  /// should try again (on the fresh file, or one another Reckon put at the name); false for
  /// any other error or a stand-in. A salvage stopped by Ctrl-C, or that could not be made,
  /// changes nothing and throws what to say (the next use tries again).
  private func salvage(_ state: inout State, because error: SQLiteError) throws(StoreError) -> Bool {
    guard SQLiteStore.isCorruption(error), let path = salvageablePath(state) else { return false }
    // Close the damaged database before its files move (this was the last reference to its
    // connection). If the salvage fails, the next use opens it again.
    state = .waiting
    // The background checkpoint's connection must be closed too before the files move.
    for _ in 0..<200 where checkpointing.load(ordering: .acquiring) { usleep(10_000) }
    switch SQLiteStore.salvage(path, policy: salvagePolicy, tables: modeTables) {
    case .salvaged(let report):
      let fresh = SQLiteStore.connect(
        path: path, now: nil, patience: 15_000, salvage: salvagePolicy, tables: modeTables)
      fresh.notices.insert(report.notice(path: path, damage: error.message), at: 0)
      state = .open(fresh)
      mayHaveNotices.store(true, ordering: .releasing)
      return true
    case .replacedElsewhere:
      return true
    case .stopped:
      throw StoreError(SQLiteStore.salvageStopped(path, damage: error.message))
    case .failed(let why):
      throw StoreError("\(path) is damaged (\(error.message)), and what can be read could not be copied (\(why))")
    }
  }

  /// Opens the file for writing again, at most once a second; nil while it still cannot be.
  /// What opening it found (a damaged file moved aside) is queued as notices.
  private func reopen(_ file: String, in state: inout State) -> Connection? {
    let now = monotonicMilliseconds()
    // (The saves at the end are the last chance: no waiting for the second to pass.)
    guard now - lastReopen.load(ordering: .relaxed) >= 1000 || exiting.load(ordering: .relaxed) else { return nil }
    lastReopen.store(now, ordering: .relaxed)
    let connection = SQLiteStore.connect(
      path: file, now: nil, patience: 1000, salvage: salvagePolicy, tables: modeTables)
    // A file found unsafe now (a link planted since) gives a store in memory: not a file
    // that can be saved to.
    guard connection.cannotSave == nil, connection.path != nil else { return nil }
    state = .open(connection)
    mayHaveNotices.store(true, ordering: .releasing)
    return connection
  }

  /// The session is ending: from now on a write waits for another Reckon's lock as long as
  /// opening does (10 s), so that what was kept is saved if it can be.
  public func willEnd() {
    exiting.store(true, ordering: .relaxed)
  }

  /// How many writes this Reckon makes between two checkpoints.
  static let writesPerCheckpoint = 50

  /// Copies the WAL into the database on a thread of its own, through a connection of its own,
  /// while the session goes on. SQLite would otherwise do it inside the commit that fills the
  /// WAL to 1,000 pages, and its fsync held that answer up by 10–20 ms (bench/run saw it at
  /// the same two questions of every 500-question drill). A passive checkpoint waits for no
  /// one, and writers go on appending to the WAL while it runs.
  private func checkpointInBackground(_ path: String) {
    guard !checkpointing.exchange(true, ordering: .acquiring) else { return }
    let started = BackgroundThread.start { [self] in
      if let db = try? Database(path, flags: .readWrite) {
        try? db.keepWALFilesOnClose()
        db.setBusyTimeout(milliseconds: 1000)  // its read of the header may meet a WAL recovery
        _ = try? db.checkpoint(.passive)
      }
      checkpointing.store(false, ordering: .releasing)
    }
    if !started { checkpointing.store(false, ordering: .releasing) }
  }

  /// Whether a write that failed so would fail the same way every time: its SQL is wrong
  /// (SQLITE_ERROR on a database migrated for it, a constraint, a type), not the file.
  static func isLasting(_ error: SQLiteError) -> Bool {
    [.error, .constraint, .mismatch, .misuse, .range, .tooBig].contains { error.is($0) }
  }

  /// Whether a write failed for want of space: a full disk, or the file size limit.
  static func isOutOfSpace(_ error: SQLiteError) -> Bool {
    error.is(.full) || error.systemErrno == ENOSPC || error.systemErrno == EFBIG
      || (error.is(.ioError) && fileSizeLimitIsNear)
  }

  static func describe(_ error: SQLiteError) -> String {
    if error.is(.full) || error.systemErrno == ENOSPC { return "the disk is full" }
    if error.systemErrno == EFBIG || (error.is(.ioError) && fileSizeLimitIsNear) {
      return "the file size limit (ulimit -f) is reached"
    }
    if error.is(.readOnly) || error.is(.permission) || error.is(.cantOpen) {
      return "the database cannot be written here"
    }
    if error.is(.busy) || error.is(.locked) { return "the database is busy in another Reckon" }
    return error.message
  }

  /// Whether a file size limit is set (`ulimit -f`) that a write could have passed: SQLite's
  /// error for a write refused with EFBIG is a plain I/O error, and its errno is not always
  /// the write's by the time it is asked for (it reads errno again, after the rollback).
  static var fileSizeLimitIsNear: Bool {
    var limit = rlimit()
    return getrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit) == 0 && limit.rlim_cur < 1 << 40  // (RLIM_INFINITY is all ones)
  }

  /// `YYYYMMDD-HHMMSS` in local time, for the name of a file moved aside.
  static func timestamp(_ seconds: time_t) -> String {
    var seconds = seconds
    var parts = tm()
    localtime_r(&seconds, &parts)
    func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
    return "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))-"
      + "\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))"
  }
}

/// Milliseconds on the monotonic clock.
func monotonicMilliseconds() -> Int64 {
  var now = timespec()
  clock_gettime(CLOCK_MONOTONIC, &now)
  return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
}

/// A detached thread for work off the session's path (plain pthreads: no Foundation).
enum BackgroundThread {
  final class Job: Sendable {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  }

  /// Starts `body` on a new detached thread; false when no thread could be had.
  static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    var thread = pthread_t()
    let context = Unmanaged.passRetained(Job(body)).toOpaque()
    let started = pthread_create(
      &thread, &attributes,
      { context in
        Unmanaged<Job>.fromOpaque(context!).takeRetainedValue().body()
        return nil
      }, context)
    guard started == 0 else {
      Unmanaged<Job>.fromOpaque(context).release()
      return false
    }
    return true
  }
}
