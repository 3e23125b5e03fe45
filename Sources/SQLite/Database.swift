import CSQLite

/// One connection to an SQLite database, through SQLite's C interface.
///
/// Not for two threads at once (it is opened `SQLITE_OPEN_NOMUTEX`): whoever shares one
/// guards it with a lock. Statements prepared through `cached` are kept, by their SQL, for
/// the connection's life; the connection closes when the last reference to it goes.
public final class Database {
  /// How a database is opened: `sqlite3_open_v2`'s flags.
  public struct OpenFlags: OptionSet, Sendable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let readOnly = OpenFlags(rawValue: SQLITE_OPEN_READONLY)
    public static let readWrite = OpenFlags(rawValue: SQLITE_OPEN_READWRITE)
    /// Create the file if it is missing (with `readWrite`).
    public static let create = OpenFlags(rawValue: SQLITE_OPEN_CREATE)
    /// The name is a `file:` URI (`file:/path?immutable=1`).
    public static let uri = OpenFlags(rawValue: SQLITE_OPEN_URI)
    /// A private database in memory, whatever the name.
    public static let memory = OpenFlags(rawValue: SQLITE_OPEN_MEMORY)

    /// Read and write, creating the file if it is missing.
    public static let readWriteCreate: OpenFlags = [.readWrite, .create]
  }

  public enum TransactionKind: String, Sendable {
    /// Takes the write lock at `BEGIN` (waiting up to the busy timeout): a read inside sees
    /// what it will change, and committing never fails for another writer's sake.
    case immediate = "IMMEDIATE"
    /// Takes locks as statements need them (a read-only transaction).
    case deferred = "DEFERRED"
    case exclusive = "EXCLUSIVE"
  }

  public enum CheckpointMode: Int32, Sendable {
    /// As much as can be copied without waiting for readers or writers.
    case passive = 0
    case full = 1
    case restart = 2
    case truncate = 3
  }

  let handle: OpaquePointer
  /// The name it was opened with (a path, a `file:` URI or `:memory:`).
  public let name: String
  private var cache: [String: Statement] = [:]
  /// The progress handler's closure, kept alive while SQLite may call it.
  private var progress: ProgressHandler?

  final class ProgressHandler {
    let body: () -> Bool
    init(_ body: @escaping () -> Bool) { self.body = body }
  }

  /// Opens (or creates) a database. Extended result codes are on.
  public init(_ name: String, flags: OpenFlags = .readWriteCreate) throws(SQLiteError) {
    var handle: OpaquePointer?
    let code = sqlite3_open_v2(name, &handle, flags.rawValue | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE, nil)
    guard code == SQLITE_OK, let handle else {
      let error = SQLiteError.last(handle, code: code == SQLITE_OK ? SQLITE_NOMEM : code)
      sqlite3_close_v2(handle)
      throw error
    }
    self.handle = handle
    self.name = name
  }

  /// A private database in memory.
  public static func inMemory() throws(SQLiteError) -> Database { try Database(":memory:") }

  /// A database read from `bytes` (a whole database file), held in memory and read-only: for
  /// reading a file that came inside another (an Anki package's collection) without writing it
  /// to disk. Such a file may have been made to do harm, so the connection is defensive
  /// (`SQLITE_DBCONFIG_DEFENSIVE`), trusts no function or view in its schema, and checks
  /// every cell's size as it reads; `limits` are set before its schema is first read (a
  /// schema statement longer or deeper than they allow makes every statement fail).
  public static func reading(bytes: [UInt8], limits: [(Limit, Int32)] = []) throws(SQLiteError) -> Database {
    guard let image = bytes.withUnsafeBytes({ DatabaseImage(copying: $0) }) else {
      throw SQLiteError(code: ResultCode(SQLITE_NOMEM), message: "out of memory")
    }
    return try reading(image, limits: limits)
  }

  /// As `reading(bytes:limits:)`, the database in `image`, which SQLite takes (the image is
  /// empty afterwards, on failure too): read where it is, never copied.
  public static func reading(_ image: DatabaseImage, limits: [(Limit, Int32)] = []) throws(SQLiteError) -> Database {
    let db = try Database(":memory:")
    for (limit, value) in limits { db.setLimit(limit, value) }
    let (base, count) = image.take()
    guard let base else { throw SQLiteError(code: ResultCode(SQLITE_NOMEM), message: "out of memory") }
    // A file last written in WAL mode says so in its header (bytes 18 and 19 are 2), and
    // SQLite will not read one in memory: it is read as a rollback-journal file, as it is.
    if count >= 100 && base.load(fromByteOffset: 18, as: UInt8.self) == 2
      && base.load(fromByteOffset: 19, as: UInt8.self) == 2
    {
      base.storeBytes(of: 1, toByteOffset: 18, as: UInt8.self)
      base.storeBytes(of: 1, toByteOffset: 19, as: UInt8.self)
    }
    // FREEONCLOSE: SQLite frees the memory, on failure too.
    let code = sqlite3_deserialize(
      db.handle, "main", base.assumingMemoryBound(to: UInt8.self), Int64(count), Int64(count),
      UInt32(SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_READONLY))
    guard code == SQLITE_OK else { throw SQLiteError.last(db.handle, code: code) }
    var unused: Int32 = 0
    _ = reckon_sqlite_db_config_int(db.handle, SQLITE_DBCONFIG_DEFENSIVE, 1, &unused)
    _ = reckon_sqlite_db_config_int(db.handle, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, &unused)
    try db.execute("PRAGMA cell_size_check = ON")
    return db
  }

  deinit {
    cache.removeAll()  // finalizes them: a connection closes once its statements are gone
    sqlite3_close_v2(handle)
  }

  // MARK: Limits

  /// One of SQLite's limits on what a statement on this connection may make or hold
  /// (`sqlite3_limit`): set low for a file that may have been made to do harm, so that it
  /// fails with SQLite's error rather than taking the memory or the time.
  public struct Limit: Sendable {
    let id: Int32
    /// The longest string or blob, and the longest row, in bytes ("string or blob too big").
    public static let length = Limit(id: SQLITE_LIMIT_LENGTH)
    /// The longest SQL statement, in bytes: the schema's statements too.
    public static let sqlLength = Limit(id: SQLITE_LIMIT_SQL_LENGTH)
    /// The deepest expression tree, the schema's too.
    public static let expressionDepth = Limit(id: SQLITE_LIMIT_EXPR_DEPTH)
    /// The most terms of a compound SELECT (`UNION`, …).
    public static let compoundSelect = Limit(id: SQLITE_LIMIT_COMPOUND_SELECT)
    /// The most instructions of one prepared statement.
    public static let programLength = Limit(id: SQLITE_LIMIT_VDBE_OP)
    /// The most arguments of a function.
    public static let functionArguments = Limit(id: SQLITE_LIMIT_FUNCTION_ARG)
    /// The most databases attached.
    public static let attached = Limit(id: SQLITE_LIMIT_ATTACHED)
    /// The longest pattern of `LIKE` or `GLOB`.
    public static let patternLength = Limit(id: SQLITE_LIMIT_LIKE_PATTERN_LENGTH)
    /// The deepest recursion of triggers.
    public static let triggerDepth = Limit(id: SQLITE_LIMIT_TRIGGER_DEPTH)
    /// The most threads a sort may use besides the caller's.
    public static let workerThreads = Limit(id: SQLITE_LIMIT_WORKER_THREADS)
  }

  /// Sets a limit for this connection (SQLite lowers a value above its compiled maximum to
  /// it); returns the value it had.
  @discardableResult
  public func setLimit(_ limit: Limit, _ value: Int32) -> Int32 { sqlite3_limit(handle, limit.id, value) }

  /// A limit's value on this connection.
  public func limit(_ limit: Limit) -> Int32 { sqlite3_limit(handle, limit.id, -1) }

  // MARK: Progress

  /// Calls `stop` about every `instructions` steps of SQLite's virtual machine while a
  /// statement runs on this connection; when it returns true, the statement ends at once with
  /// `SQLITE_INTERRUPT` (and what it had changed is rolled back, as for any failed statement).
  /// This bounds work SQLite cannot bound itself (a query over a damaged file, say) by a
  /// clock or a Ctrl-C. Nil removes it. (`sqlite3_progress_handler`.)
  public func setProgressHandler(every instructions: Int32 = 1000, _ stop: (() -> Bool)?) {
    guard let stop else {
      sqlite3_progress_handler(handle, 0, nil, nil)
      progress = nil
      return
    }
    let box = ProgressHandler(stop)
    progress = box
    sqlite3_progress_handler(
      handle, max(1, instructions),
      { context in
        guard let context else { return 0 }
        return Unmanaged<ProgressHandler>.fromOpaque(context).takeUnretainedValue().body() ? 1 : 0
      }, Unmanaged.passUnretained(box).toOpaque())
  }

  // MARK: Statements

  /// A new statement, for the caller alone.
  public func prepare(_ sql: String) throws(SQLiteError) -> Statement {
    try Statement(connection: handle, sql: sql, persistent: false)
  }

  /// The connection's statement for `sql`, prepared the first time and kept.
  public func cached(_ sql: String) throws(SQLiteError) -> Statement {
    if let statement = cache[sql] { return statement }
    let statement = try Statement(connection: handle, sql: sql, persistent: true)
    cache[sql] = statement
    return statement
  }

  /// Runs a script: any number of statements separated by semicolons, without parameters.
  public func execute(_ script: String) throws(SQLiteError) {
    var message: UnsafeMutablePointer<CChar>?
    let code = sqlite3_exec(handle, script, nil, nil, &message)
    guard code == SQLITE_OK else {
      var error = SQLiteError.last(handle, code: code, sql: script)
      if let message {
        error.message = String(cString: message)
        sqlite3_free(message)
      }
      throw error
    }
  }

  /// Runs one statement (cached) with `values` for its parameters, to its end.
  public func run<each V: SQLiteValue>(_ sql: String, _ values: repeat each V) throws(SQLiteError) {
    let statement = try cached(sql)
    try statement.bind(repeat each values)
    try statement.run()
  }

  /// Every row of a query (cached), each made into a value by `row`.
  public func all<each V: SQLiteValue, T>(
    _ sql: String, _ values: repeat each V, row: (Row) throws(SQLiteError) -> T
  ) throws(SQLiteError) -> [T] {
    let statement = try cached(sql)
    try statement.bind(repeat each values)
    return try statement.all(row)
  }

  /// The first row of a query (cached) made into a value by `row`, or nil.
  public func first<each V: SQLiteValue, T>(
    _ sql: String, _ values: repeat each V, row: (Row) throws(SQLiteError) -> T
  ) throws(SQLiteError) -> T? {
    let statement = try cached(sql)
    try statement.bind(repeat each values)
    return try statement.first(row)
  }

  /// The first column of the first row of a query (cached), or nil when there is no row.
  public func value<each V: SQLiteValue, T: SQLiteValue>(
    _ sql: String, _ values: repeat each V, as type: T.Type = T.self
  ) throws(SQLiteError) -> T? {
    try first(sql, repeat each values) { (row) throws(SQLiteError) -> T in try row[0] }
  }

  // MARK: Transactions

  /// Runs `body` in a transaction: committed when it returns, rolled back when it (or the
  /// commit) throws. `BEGIN IMMEDIATE` waits for another writer up to the busy timeout.
  public func transaction<T>(
    _ kind: TransactionKind = .immediate, _ body: () throws(SQLiteError) -> T
  ) throws(SQLiteError) -> T {
    try cached("BEGIN \(kind.rawValue)").run()
    do {
      let result = try body()
      try cached("COMMIT").run()
      return result
    } catch {
      if !isAutocommit { try? cached("ROLLBACK").run() }
      throw error
    }
  }

  /// False inside a transaction.
  public var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

  // MARK: Settings

  /// How long a statement waits for another connection's lock before failing with
  /// `SQLITE_BUSY` (0: it fails at once).
  public func setBusyTimeout(milliseconds: Int32) { sqlite3_busy_timeout(handle, milliseconds) }

  /// `PRAGMA user_version`: a number SQLite keeps in the file's header for the application.
  public func userVersion() throws(SQLiteError) -> Int32 {
    try value("PRAGMA user_version", as: Int32.self) ?? 0
  }

  public func setUserVersion(_ version: Int32) throws(SQLiteError) {
    try execute("PRAGMA user_version = \(version)")
  }

  /// `PRAGMA journal_mode` (`wal`, `delete`, `memory`…).
  public func journalMode() throws(SQLiteError) -> String {
    try value("PRAGMA journal_mode", as: String.self) ?? ""
  }

  /// Puts the database in WAL mode (kept in the file: later connections find it so), unless it
  /// is already; fails when SQLite keeps another mode (an in-memory database keeps `memory`).
  /// `synchronous = NORMAL` for this connection: in WAL mode a commit is then safe from a
  /// crash of the process, and only the checkpoint waits for the disk.
  public func enableWAL() throws(SQLiteError) {
    if try journalMode() != "wal" {
      let mode = try value("PRAGMA journal_mode = WAL", as: String.self)
      guard mode == "wal" else {
        throw SQLiteError(code: .error, message: "the database stayed in journal mode \(mode ?? "?"), not WAL")
      }
    }
    try execute("PRAGMA synchronous = NORMAL")
  }

  /// Copies the WAL's pages into the database file (`sqlite3_wal_checkpoint_v2`). Returns the
  /// WAL's size and how much of it is now in the database, in pages.
  ///
  /// It reads the header first: a connection that has read nothing yet has not found the WAL,
  /// and SQLite's checkpoint would do nothing (and say -1, -1).
  @discardableResult
  public func checkpoint(_ mode: CheckpointMode = .passive) throws(SQLiteError) -> (log: Int, copied: Int) {
    _ = try userVersion()
    var log: Int32 = 0
    var copied: Int32 = 0
    let code = sqlite3_wal_checkpoint_v2(handle, nil, mode.rawValue, &log, &copied)
    guard code == SQLITE_OK else { throw SQLiteError.last(handle, code: code) }
    return (Int(log), Int(copied))
  }

  /// Whether a table of that name exists.
  public func tableExists(_ name: String) throws(SQLiteError) -> Bool {
    try value("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", name, as: Int.self) != nil
  }

  /// The row id of the last row inserted through this connection.
  public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }
  /// Rows changed by the last INSERT, UPDATE or DELETE.
  public var changes: Int { Int(sqlite3_changes64(handle)) }

  /// Keeps the -wal and -shm files when this connection closes (SQLite's
  /// `SQLITE_FCNTL_PERSIST_WAL`), truncating the -wal to nothing if `journal_size_limit` is
  /// set, instead of deleting them by name: a connection to a file that has since been
  /// renamed (moved aside) would otherwise delete the files of the one now at its name.
  public func keepWALFilesOnClose() throws(SQLiteError) {
    var on: Int32 = 1
    let code = sqlite3_file_control(handle, "main", SQLITE_FCNTL_PERSIST_WAL, &on)
    guard code == SQLITE_OK else { throw SQLiteError.last(handle, code: code) }
  }

  /// Leaves the WAL as it is when this connection closes: by default the last connection to
  /// a database checkpoints it into the main file then (`SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE`),
  /// and a connection that only looks at a file (a damaged one, kept aside as it was) must
  /// not write into it.
  public func skipCheckpointOnClose() throws(SQLiteError) {
    let code = reckon_sqlite_db_config_int(handle, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nil)
    guard code == SQLITE_OK else { throw SQLiteError.last(handle, code: code) }
  }

  /// `PRAGMA data_version`: a number that changes when another connection commits a change to
  /// the main database (never for this connection's own), so that one can tell whether
  /// anything was written since it last looked.
  public func dataVersion() throws(SQLiteError) -> Int64 {
    try value("PRAGMA data_version", as: Int64.self) ?? 0
  }

  /// Whether the main database was opened read-only: SQLite opens a file it may not write
  /// read-only without a word, even when asked to open it for writing.
  public var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

  // MARK: The library

  /// The SQLite linked in (`3.40.1`).
  public static var libraryVersion: String { String(cString: sqlite3_libversion()) }
}
