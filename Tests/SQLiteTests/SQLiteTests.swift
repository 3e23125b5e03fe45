import Glibc
import SQLite
import Synchronization
import Testing

/// A fresh temporary folder, removed with everything in it at the end of the test.
final class Folder {
  let path: String
  init() {
    var template = Array("/tmp/reckon-sqlite-XXXXXX".utf8CString)
    path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
  }
  deinit {
    var names: [String] = []
    if let dir = opendir(path) {
      while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) {
          String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
        }
        if name != "." && name != ".." { names.append(name) }
      }
      closedir(dir)
    }
    for name in names { unlink(path + "/" + name) }
    rmdir(path)
  }
  func exists(_ name: String) -> Bool { access(path + "/" + name, F_OK) == 0 }
}

/// A pthread running `body`, joined with `join`.
final class OwnThread {
  final class Job: @unchecked Sendable {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
  }
  var thread = pthread_t()

  init(_ body: @escaping () -> Void) {
    let context = Unmanaged.passRetained(Job(body)).toOpaque()
    let started = pthread_create(
      &thread, nil,
      { context in
        Unmanaged<Job>.fromOpaque(context!).takeRetainedValue().body()
        return nil
      }, context)
    precondition(started == 0, "no thread")
  }

  func join() { pthread_join(thread, nil) }
}

/// Milliseconds on the monotonic clock.
func milliseconds() -> Int64 {
  var now = timespec()
  clock_gettime(CLOCK_MONOTONIC, &now)
  return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
}

@Suite struct SQLiteTests {
  @Test func typedValuesGoInAndComeBackAsTheyWere() throws {
    let db = try Database.inMemory()
    try db.execute("CREATE TABLE t (i INTEGER, n INTEGER, s TEXT, b BOOLEAN, d REAL, o TEXT); CREATE TABLE u (x)")
    let big: Int64 = 9_007_199_254_740_993  // not a Double
    try db.run("INSERT INTO t VALUES (?, ?, ?, ?, ?, ?)", big, 42, "zoë 🦉 × ∑", true, 2.5, String?.none)
    try db.run("INSERT INTO t VALUES (?, ?, ?, ?, ?, ?)", Int64.min, -1, "", false, -0.125, String?.some("x"))
    let rows = try db.all("SELECT i, n, s, b, d, o FROM t ORDER BY rowid") { (row) throws(SQLiteError) in
      (
        try row[0] as Int64, try row[1] as Int, try row[2] as String, try row[3] as Bool, try row[4] as Double,
        try row[5] as String?
      )
    }
    #expect(rows.count == 2)
    #expect(rows[0] == (big, 42, "zoë 🦉 × ∑", true, 2.5, nil))
    #expect(rows[1] == (Int64.min, -1, "", false, -0.125, "x"))
    // The empty string is text, not NULL; nil is NULL.
    #expect(try db.value("SELECT typeof(s) FROM t WHERE n = -1", as: String.self) == "text")
    #expect(try db.value("SELECT typeof(o) FROM t WHERE n = 42", as: String.self) == "null")
    #expect(try db.value("SELECT count(*) FROM t WHERE b = ?", true, as: Int.self) == 1)
    // Text with a NUL inside keeps its length.
    try db.run("INSERT INTO u VALUES (?)", "a\u{0}b")
    #expect(try db.value("SELECT length(CAST(x AS BLOB)) FROM u", as: Int.self) == 3)
    #expect(try db.value("SELECT x FROM u", as: String.self) == "a\u{0}b")
    try db.run("DELETE FROM u")
    try db.run("INSERT INTO u VALUES (?)", Null())
    #expect(try db.value("SELECT x IS NULL FROM u", as: Bool.self) == true)
    #expect(try db.value("SELECT x FROM u WHERE 0", as: Int.self) == nil)
  }

  @Test func nullIntoATypeThatIsNotOptionalIsAnError() throws {
    let db = try Database.inMemory()
    try db.execute("CREATE TABLE t (box INTEGER); INSERT INTO t VALUES (NULL)")
    #expect(try db.first("SELECT box FROM t") { (row) throws(SQLiteError) in try row[0] as Int? } == .some(nil))
    let error = #expect(throws: SQLiteError.self) {
      _ = try db.first("SELECT box FROM t") { (row) throws(SQLiteError) in try row[0] as Int }
    }
    #expect(error?.code == .mismatch)
    #expect(error?.message == "column 0 (box) is NULL")
    let beyond = #expect(throws: SQLiteError.self) {
      _ = try db.first("SELECT box FROM t") { (row) throws(SQLiteError) in try row[1] as Int? }
    }
    #expect(beyond?.code == .range)
  }

  @Test func errorsCarrySQLitesMessageAndCode() throws {
    let db = try Database.inMemory()
    let missing = #expect(throws: SQLiteError.self) { try db.run("SELECT * FROM nope") }
    #expect(missing?.code == .error)
    #expect(missing?.message == "no such table: nope")
    #expect(missing?.sql == "SELECT * FROM nope")
    #expect("\(missing!)" == "no such table: nope (SQLite 1) in SELECT * FROM nope")

    try db.execute("CREATE TABLE t (k TEXT PRIMARY KEY NOT NULL)")
    try db.run("INSERT INTO t VALUES (?)", "a")
    let duplicate = #expect(throws: SQLiteError.self) { try db.run("INSERT INTO t VALUES (?)", "a") }
    #expect(duplicate?.is(.constraint) == true)
    #expect(duplicate?.code == ResultCode(1555))  // SQLITE_CONSTRAINT_PRIMARYKEY
    #expect(duplicate?.message == "UNIQUE constraint failed: t.k")

    let count = #expect(throws: SQLiteError.self) { try db.run("INSERT INTO t VALUES (?)", "a", "b") }
    #expect(count?.code == .range)
    #expect(count?.message == "2 values for 1 parameters")
    let two = #expect(throws: SQLiteError.self) { _ = try db.prepare("SELECT 1; SELECT 2") }
    #expect(two?.code == .misuse)
    // A script may hold many statements; its error has SQLite's message.
    let script = #expect(throws: SQLiteError.self) { try db.execute("SELECT 1; SELEKT 2") }
    #expect(script?.message == "near \"SELEKT\": syntax error")
    #expect(ResultCode.busy.description == "database is locked")
  }

  @Test func cachedStatementsAreKeptAndRunAgainWithNewValues() throws {
    let db = try Database.inMemory()
    try db.execute("CREATE TABLE t (k INTEGER, v TEXT)")
    for k in 0..<100 { try db.run("INSERT INTO t VALUES (?, ?)", k, "v\(k)") }
    #expect(try db.cached("INSERT INTO t VALUES (?, ?)") === db.cached("INSERT INTO t VALUES (?, ?)"))
    #expect(try db.prepare("SELECT 1") !== db.prepare("SELECT 1"))
    for k in [3, 99, 0] {
      #expect(try db.value("SELECT v FROM t WHERE k = ?", k, as: String.self) == "v\(k)")
    }
    #expect(db.lastInsertRowID == 100)
    try db.run("UPDATE t SET v = 'x' WHERE k < ?", 10)
    #expect(db.changes == 10)
    // Stepping by hand: a row at a time, then done; bind starts it over.
    let statement = try db.cached("SELECT k FROM t WHERE k >= ? ORDER BY k")
    try statement.bind(98)
    #expect(try statement.step())
    #expect(try statement.step())
    #expect(try !statement.step())
    try statement.bind(50)
    #expect(try statement.all { (row) throws(SQLiteError) in try row[0] as Int }.count == 50)
  }

  @Test func aTransactionCommitsOrRollsBackWhole() throws {
    let db = try Database.inMemory()
    try db.execute("CREATE TABLE t (k INTEGER PRIMARY KEY)")
    let sum = try db.transaction { () throws(SQLiteError) -> Int in
      try db.run("INSERT INTO t VALUES (1)")
      try db.run("INSERT INTO t VALUES (2)")
      #expect(!db.isAutocommit)
      return 3
    }
    #expect(sum == 3)
    #expect(db.isAutocommit)
    let error = #expect(throws: SQLiteError.self) {
      try db.transaction { () throws(SQLiteError) in
        try db.run("INSERT INTO t VALUES (3)")
        try db.run("INSERT INTO t VALUES (1)")  // fails: the 3 goes too
      }
    }
    #expect(error?.is(.constraint) == true)
    #expect(db.isAutocommit)
    #expect(try db.all("SELECT k FROM t ORDER BY k") { (row) throws(SQLiteError) in try row[0] as Int } == [1, 2])
  }

  /// Two connections to one file: BEGIN IMMEDIATE waits for the other's write lock up to the
  /// busy timeout, then fails with SQLITE_BUSY; within the timeout it gets the lock.
  @Test func theBusyTimeoutWaitsForAnotherWriter() throws {
    let folder = Folder()
    let path = folder.path + "/db.sqlite"
    let one = try Database(path)
    try one.enableWAL()
    try one.execute("CREATE TABLE t (k INTEGER)")
    let two = try Database(path)
    try one.execute("BEGIN IMMEDIATE; INSERT INTO t VALUES (1)")
    two.setBusyTimeout(milliseconds: 0)
    let atOnce = #expect(throws: SQLiteError.self) { try two.transaction { () throws(SQLiteError) in } }
    #expect(atOnce?.is(.busy) == true)
    two.setBusyTimeout(milliseconds: 150)
    let start = milliseconds()
    let waited = #expect(throws: SQLiteError.self) { try two.transaction { () throws(SQLiteError) in } }
    #expect(waited?.is(.busy) == true)
    #expect(milliseconds() - start >= 140)
    // WAL: the other connection still reads what was committed while the write is open.
    #expect(try two.value("SELECT count(*) FROM t", as: Int.self) == 0)

    // A thread of its own (the test pool's threads may all be busy) commits in 0.1 s.
    let lockHolder = Holder(one)
    let release = OwnThread {
      usleep(100_000)
      try? lockHolder.connection.execute("COMMIT")
    }
    two.setBusyTimeout(milliseconds: 10_000)
    try two.transaction { () throws(SQLiteError) in try two.run("INSERT INTO t VALUES (2)") }
    release.join()
    #expect(try two.value("SELECT count(*) FROM t", as: Int.self) == 2)
  }

  /// Hands a connection to one other thread (the test never uses it from two at once).
  final class Holder: @unchecked Sendable {
    let connection: Database
    init(_ connection: Database) { self.connection = connection }
  }

  @Test func walModeIsKeptInTheFileAndCheckpointed() throws {
    let folder = Folder()
    let path = folder.path + "/db.sqlite"
    do {
      let db = try Database(path)
      #expect(try db.journalMode() == "delete")
      try db.enableWAL()
      #expect(try db.journalMode() == "wal")
      try db.execute("CREATE TABLE t (k INTEGER)")
      for k in 0..<10 { try db.run("INSERT INTO t VALUES (?)", k) }
      #expect(folder.exists("db.sqlite-wal"))
      let (log, copied) = try db.checkpoint(.passive)
      #expect(log > 0)
      #expect(copied == log)
      // A second connection finds WAL mode in the file.
      #expect(try Database(path).journalMode() == "wal")
    }
    // The last connection to close copies the WAL in and removes it.
    #expect(!folder.exists("db.sqlite-wal"))
    #expect(try Database(path, flags: .readOnly).value("SELECT count(*) FROM t", as: Int.self) == 10)
    let memory = #expect(throws: SQLiteError.self) { try Database.inMemory().enableWAL() }
    #expect(memory?.message == "the database stayed in journal mode memory, not WAL")
  }

  /// A connection of its own (a checkpoint on another thread) copies what another
  /// connection wrote, though it has read nothing yet, and the writer's next commit starts
  /// the WAL over: it stays small.
  @Test func aConnectionOfItsOwnCheckpointsAnotherWriters() throws {
    let folder = Folder()
    let path = folder.path + "/db.sqlite"
    let writer = try Database(path)
    try writer.enableWAL()
    try writer.execute("CREATE TABLE t (k INTEGER)")
    for k in 0..<50 { try writer.run("INSERT INTO t VALUES (?)", k) }
    let (log, copied) = try Database(path).checkpoint(.passive)
    #expect(log >= 50)
    #expect(copied == log)
    try writer.run("INSERT INTO t VALUES (?)", 50)
    let after = try Database(path).checkpoint(.passive)
    #expect(after.log == 1)
  }

  @Test func readOnlyAndDamagedFilesSaySo() throws {
    let folder = Folder()
    let path = folder.path + "/db.sqlite"
    try Database(path).execute("CREATE TABLE t (k INTEGER)")
    let reader = try Database(path, flags: .readOnly)
    let write = #expect(throws: SQLiteError.self) { try reader.run("INSERT INTO t VALUES (1)") }
    #expect(write?.is(.readOnly) == true)
    // immutable=1: read without locks or -wal and -shm files.
    let immutable = try Database("file:" + path + "?immutable=1", flags: [.readOnly, .uri])
    #expect(try immutable.tableExists("t"))
    #expect(try !immutable.tableExists("u"))

    let garbage = folder.path + "/garbage.sqlite"
    let fd = open(garbage, O_WRONLY | O_CREAT, 0o600)
    _ = [UInt8](repeating: 0x42, count: 8192).withUnsafeBytes { Glibc.write(fd, $0.baseAddress, 8192) }
    close(fd)
    let damaged = try Database(garbage)  // opening reads nothing yet
    let read = #expect(throws: SQLiteError.self) { _ = try damaged.userVersion() }
    #expect(read?.code == .notADatabase)
    let missing = #expect(throws: SQLiteError.self) { _ = try Database(folder.path + "/no/such.sqlite") }
    #expect(missing?.code == .cantOpen)
  }

  @Test func theFirstRowAndRowsAsText() throws {
    let db = try Database.inMemory()
    try db.execute("CREATE TABLE t (a, b, c); INSERT INTO t VALUES (1, 'x', NULL), (2, 'y', 2.5)")
    let dump = try db.all("SELECT * FROM t ORDER BY rowid") { (row) throws(SQLiteError) in
      (0..<row.count).map(row.text).joined(separator: "|")
    }
    #expect(dump == ["1|x|", "2|y|2.5"])
    #expect(
      try db.first("SELECT b FROM t ORDER BY a DESC") { (row) throws(SQLiteError) in try row[0] as String } == "y")
    #expect(try db.first("SELECT b FROM t WHERE 0") { (row) throws(SQLiteError) in try row[0] as String } == nil)
    #expect(!Database.libraryVersion.isEmpty)
  }

  /// Text with bytes that are not UTF-8, and a blob with a NUL, go in and come out byte for
  /// byte (a String would have repaired the text).
  @Test func textBytesAndBlobsAreCopiedByteForByte() throws {
    let db = try Database.inMemory()
    try db.execute("CREATE TABLE t (a, b)")
    let text: [UInt8] = [0x61, 0xFF, 0xC3, 0x00, 0x62]
    let blob: [UInt8] = [0x00, 0x01, 0xFE]
    try db.run("INSERT INTO t VALUES (?, ?)", TextBytes(text), Blob(blob))
    try db.run("INSERT INTO t VALUES (?, ?)", TextBytes([]), Blob([]))
    #expect(
      try db.all("SELECT typeof(a), typeof(b), length(CAST(a AS BLOB)), length(b) FROM t") {
        (row) throws(SQLiteError) in (0..<4).map(row.text).joined(separator: " ")
      } == ["text blob 5 3", "text blob 0 0"])
    #expect(try db.value("SELECT a FROM t WHERE rowid = 1") as TextBytes? == TextBytes(text))
    #expect(try db.value("SELECT b FROM t WHERE rowid = 1") as Blob? == Blob(blob))
    #expect(try db.value("SELECT hex(a) FROM t WHERE rowid = 1") as String? == "61FFC30062")
    #expect(try db.value("SELECT b FROM t WHERE rowid = 2") as Blob? == Blob([]))
    #expect(try db.value("SELECT a FROM t WHERE rowid = 2") as TextBytes? == TextBytes([]))
  }

  /// A DatabaseValue reads any column as SQLite stores it and binds it back as the same type:
  /// a row copied through them is the same row.
  @Test func databaseValuesCopyARowAsItIs() throws {
    let db = try Database.inMemory()
    try db.execute(
      """
      CREATE TABLE t (a, b, c, d, e); CREATE TABLE u (a, b, c, d, e);
      INSERT INTO t VALUES (NULL, -9223372036854775808, 2.5, 'é' || char(0) || 'x', x'00ff');
      """)
    let row = try #require(
      try db.first("SELECT * FROM t") { (row) throws(SQLiteError) in
        try (0..<row.count).map { (column) throws(SQLiteError) -> DatabaseValue in try row[column] }
      })
    #expect(
      row == [
        .null, .integer(Int64.min), .real(2.5), .text(Array("é".utf8) + [0, UInt8(ascii: "x")]), .blob([0, 255]),
      ])
    let insert = try db.prepare("INSERT INTO u VALUES (?, ?, ?, ?, ?)")
    for (index, value) in row.enumerated() { try insert.bind(value, at: index + 1) }
    try insert.run()
    #expect(
      try db.value(
        "SELECT count(*) FROM t, u WHERE t.a IS u.a AND t.b IS u.b AND t.c IS u.c AND t.d IS u.d AND t.e IS u.e")
        as Int? == 1)
    #expect(
      try db.value("SELECT typeof(a) || typeof(b) || typeof(c) || typeof(d) || typeof(e) FROM u") as String?
        == "nullintegerrealtextblob")
  }

  /// forEachRow gives the rows as they are read, stops when told, and throws an error met
  /// part-way only after the rows before it were given.
  @Test func forEachRowGivesWhatWasReadBeforeAnError() throws {
    let db = try Database.inMemory()
    try db.execute("CREATE TABLE t (k INTEGER); INSERT INTO t VALUES (1), (2), (3), (0), (5)")
    // The row with k = 0 cannot be read: abs of the smallest integer fails with an overflow.
    let statement = try db.prepare(
      "SELECT k, abs(CASE k WHEN 0 THEN -9223372036854775808 ELSE k END) FROM t ORDER BY rowid")
    var seen: [Int] = []
    let error = #expect(throws: SQLiteError.self) {
      try statement.forEachRow { (row) throws(SQLiteError) -> Bool in
        seen.append(try row[0])
        return true
      }
    }
    #expect(error?.message == "integer overflow")
    #expect(seen == [1, 2, 3])
    seen = []
    try statement.forEachRow { (row) throws(SQLiteError) -> Bool in
      seen.append(try row[0])
      return seen.count < 2
    }
    #expect(seen == [1, 2])
  }

  /// The progress handler is called while a statement runs, and stops it when it says so:
  /// the statement fails with SQLITE_INTERRUPT and its changes are undone; the connection
  /// goes on, and without the handler the same statement runs to its end.
  @Test func theProgressHandlerStopsAStatement() throws {
    let db = try Database.inMemory()
    try db.execute("CREATE TABLE t (k INTEGER)")
    let calls = Mutex(0)
    db.setProgressHandler(every: 100) {
      calls.withLock { count in
        count += 1
        return count > 50
      }
    }
    let insert = """
      INSERT INTO t WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000000) SELECT i FROM n
      """
    let stopped = #expect(throws: SQLiteError.self) { try db.execute(insert) }
    #expect(stopped?.is(.interrupt) == true)
    #expect(calls.withLock { $0 } == 51)
    #expect(try db.value("SELECT count(*) FROM t") as Int? == 0)
    // A statement short enough runs.
    calls.withLock { $0 = 0 }
    try db.run("INSERT INTO t VALUES (1)")
    #expect(try db.value("SELECT count(*) FROM t") as Int? == 1)
    db.setProgressHandler(nil)
    try db.execute("DELETE FROM t; " + insert)
    #expect(try db.value("SELECT count(*) FROM t") as Int? == 1_000_000)
    #expect(calls.withLock { $0 } < 51)
  }

  /// A connection's limits bound what its statements make and what schema it reads: a
  /// value past the length limit fails ("too big"), and a file whose schema holds a statement
  /// longer or deeper than allowed cannot be queried at all.
  @Test func limitsBoundValuesAndTheSchema() throws {
    let folder = Folder()
    let path = folder.path + "/limits.sqlite"
    let writer = try Database(path)
    try writer.execute(
      "CREATE TABLE t (x TEXT); INSERT INTO t VALUES ('hello'); CREATE VIEW deep AS SELECT "
        + Array(repeating: "1", count: 200).joined(separator: " + ") + " AS x")
    let bytes = try Self.fileBytes(path)
    // Within the limits, the view's 200 terms (an expression 200 deep) cannot be read.
    let strict = try Database.reading(bytes: bytes, limits: [(.length, 1000), (.expressionDepth, 100)])
    #expect(strict.limit(.length) == 1000)
    let deep = #expect(throws: SQLiteError.self) { try strict.value("SELECT x FROM t", as: String.self) }
    #expect(deep?.message.hasPrefix("malformed database schema (deep)") == true, "\(deep?.message ?? "")")
    // The same file with room for the view: a value longer than 1,000 bytes is too big.
    let loose = try Database.reading(bytes: bytes, limits: [(.length, 1000)])
    #expect(try loose.value("SELECT x FROM t", as: String.self) == "hello")
    #expect(try loose.value("SELECT length(zeroblob(1000))", as: Int.self) == 1000)
    let tooBig = #expect(throws: SQLiteError.self) { try loose.value("SELECT zeroblob(1001)", as: Blob.self) }
    #expect(tooBig?.is(.tooBig) == true)
    // A statement longer than the SQL limit is refused before it runs.
    loose.setLimit(.sqlLength, 100)
    let long = #expect(throws: SQLiteError.self) {
      try loose.value("SELECT '" + String(repeating: "x", count: 200) + "'", as: String.self)
    }
    #expect(long?.is(.tooBig) == true)
  }

  static func fileBytes(_ path: String) throws -> [UInt8] {
    guard let file = fopen(path, "rb") else { throw SQLiteError(code: .cantOpen, message: "cannot open \(path)") }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = fread(&buffer, 1, buffer.count, file)
      if count <= 0 { break }
      bytes += buffer[0..<count]
    }
    return bytes
  }

  /// data_version changes when another connection commits, not for the connection's own
  /// commits; and a connection that skips the checkpoint on close leaves the WAL as it was.
  @Test func dataVersionAndNoCheckpointOnClose() throws {
    let folder = Folder()
    let path = folder.path + "/db.sqlite"
    let watcher = try Database(path)
    try watcher.enableWAL()
    try watcher.execute("CREATE TABLE t (k INTEGER)")
    let before = try watcher.dataVersion()
    try watcher.run("INSERT INTO t VALUES (1)")
    #expect(try watcher.dataVersion() == before)
    do {
      let other = try Database(path)
      try other.run("INSERT INTO t VALUES (2)")
    }
    let after = try watcher.dataVersion()
    #expect(after != before)
    #expect(try watcher.dataVersion() == after)

    // The watcher is the last connection: closed as it is, it would copy the WAL into the
    // file; told to skip that, it leaves both files as they were.
    try watcher.keepWALFilesOnClose()
    try watcher.skipCheckpointOnClose()
    let size = { (name: String) -> Int in
      var info = stat()
      return stat(name, &info) == 0 ? Int(info.st_size) : -1
    }
    let (main, wal) = (size(path), size(path + "-wal"))
    #expect(wal > 0)
    _ = consume watcher
    #expect(size(path) == main)
    #expect(size(path + "-wal") == wal)
    #expect(try Database(path, flags: .readOnly).value("SELECT count(*) FROM t") as Int? == 2)
  }
}

@Suite struct MigratorTests {
  /// Counts how often each migration ran.
  final class Runs: Sendable {
    let counts = Mutex([Int](repeating: 0, count: 3))
    func ran(_ n: Int) { counts.withLock { $0[n] += 1 } }
    var all: [Int] { counts.withLock { $0 } }
  }

  static func migrator(_ runs: Runs, failing: Int? = nil) -> Migrator {
    Migrator([
      .init("one") { (db) throws(SQLiteError) in
        runs.ran(0)
        try db.execute("CREATE TABLE a (x INTEGER NOT NULL)")
      },
      .init("two") { (db) throws(SQLiteError) in
        runs.ran(1)
        try db.execute("ALTER TABLE a ADD COLUMN y TEXT")
        if failing == 1 { try db.execute("SELECT * FROM nowhere") }
      },
      .init("three") { (db) throws(SQLiteError) in
        runs.ran(2)
        try db.execute("CREATE TABLE b (z INTEGER)")
      },
    ])
  }

  @Test func aNewDatabaseGetsEveryMigrationOnce() throws {
    let runs = Runs()
    let migrator = Self.migrator(runs)
    let db = try Database.inMemory()
    #expect(try migrator.migrate(db) == 0)
    #expect(try db.userVersion() == 3)
    #expect(try migrator.migrate(db) == 3)
    #expect(runs.all == [1, 1, 1])
    #expect(try db.tableExists("b"))
  }

  @Test func anOlderDatabaseGetsOnlyWhatItLacks() throws {
    let runs = Runs()
    let migrator = Self.migrator(runs)
    let db = try Database.inMemory()
    try migrator.migrate(db, upTo: 1)
    #expect(try db.userVersion() == 1)
    #expect(try !db.tableExists("b"))
    #expect(try migrator.migrate(db) == 1)
    #expect(runs.all == [1, 1, 1])
    #expect(try migrator.version(of: db) == 3)
  }

  /// A failing migration leaves the database as it was before any of that run's migrations.
  @Test func aFailingMigrationChangesNothing() throws {
    let runs = Runs()
    let db = try Database.inMemory()
    let error = #expect(throws: SQLiteError.self) { try Self.migrator(runs, failing: 1).migrate(db) }
    #expect(error?.message == "migration two: no such table: nowhere")
    #expect(try db.userVersion() == 0)
    #expect(try !db.tableExists("a"))
    #expect(try Self.migrator(runs).migrate(db) == 0)
    #expect(try db.userVersion() == 3)
  }

  /// A negative user_version (a damaged header) is no version: migrating says the file is
  /// damaged, as SQLite would, and changes nothing (it used to crash on the negative index).
  @Test func aNegativeVersionIsDamageNotAMigration() throws {
    let runs = Runs()
    let db = try Database.inMemory()
    try db.setUserVersion(-12345)
    let error = #expect(throws: SQLiteError.self) { try Self.migrator(runs).migrate(db) }
    #expect(error?.code == .corrupt)
    #expect(error?.message == "database disk image is malformed (its version, user_version, is -12345)")
    #expect(runs.all == [0, 0, 0])
    #expect(try db.userVersion() == -12345)
  }

  /// A database from before user_version was kept: the former bookkeeping says how far it got.
  @Test func theFormerBookkeepingSaysWhereToStart() throws {
    let runs = Runs()
    var migrator = Self.migrator(runs)
    migrator.formerVersion = { (db) throws(SQLiteError) in try db.tableExists("a") ? 2 : 0 }
    let db = try Database.inMemory()
    try db.execute("CREATE TABLE a (x INTEGER NOT NULL, y TEXT)")
    #expect(try migrator.version(of: db) == 2)
    #expect(try migrator.migrate(db) == 2)
    #expect(runs.all == [0, 0, 1])
    #expect(try db.userVersion() == 3)
  }

  /// Several connections migrating one new file at once: each migration runs once.
  @Test func connectionsMigratingAtOnceRunEachMigrationOnce() throws {
    let folder = Folder()
    let path = folder.path + "/db.sqlite"
    let runs = Runs()
    let migrator = Self.migrator(runs)
    try Database(path).enableWAL()
    let found = Mutex<[Int32]>([])
    let threads = (0..<4).map { _ in
      OwnThread {
        guard let db = try? Database(path) else { return }
        db.setBusyTimeout(milliseconds: 10_000)
        if let version = try? migrator.migrate(db) { found.withLock { $0.append(version) } }
      }
    }
    for thread in threads { thread.join() }
    #expect(found.withLock { $0.sorted() } == [0, 3, 3, 3])
    #expect(runs.all == [1, 1, 1])
  }
}
