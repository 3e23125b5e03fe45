import Glibc
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
  /// Whether the store has been opened and its warnings may not have been taken yet: the
  /// session asks after every line, and a 100,000-line script should not take a lock each time.
  private let mayHaveWarnings: Atomic<Bool>
  /// Whether a checkpoint is running in the background.
  let checkpointing = Atomic<Bool>(false)

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
    var warningsTaken = false
    /// Writes since the last checkpoint this Reckon started (none for a read-only store).
    var writes = 0
    let canCheckpoint: Bool

    init(_ db: Database, path: String?, warnings: [String], canCheckpoint: Bool = false) {
      self.db = db
      self.path = path
      self.warnings = warnings
      self.canCheckpoint = canCheckpoint && path != nil
    }
  }

  /// A store for the database at `path`, opened when first needed.
  public init(path: String) {
    file = path
    state = Mutex(.waiting)
    mayHaveWarnings = Atomic(false)
  }

  init(_ connection: Connection) {
    file = connection.path
    state = Mutex(.open(connection))
    mayHaveWarnings = Atomic(true)
  }

  /// Opens or creates the database at `path` now (its folder is created 0700, the file
  /// 0600). `now` (seconds since 1970) names a damaged file moved aside.
  public static func open(path: String, now: time_t? = nil, patience: Int64 = 15_000) -> SQLiteStore {
    SQLiteStore(connect(path: path, now: now, patience: patience))
  }

  /// A store that keeps nothing after the process ends.
  public static func inMemory(warning: String? = nil) -> SQLiteStore {
    SQLiteStore(memoryConnection(warning: warning))
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

  private var fileExists: Bool { file.map { access($0, F_OK) == 0 } ?? true }

  // MARK: Opening

  /// The open connection, opening (and creating) the database if need be.
  private func connection(_ state: inout State) -> Connection {
    if case .open(let connection) = state { return connection }
    let connection =
      file.map { SQLiteStore.connect(path: $0, now: nil, patience: 15_000) } ?? SQLiteStore.memoryConnection()
    state = .open(connection)
    mayHaveWarnings.store(true, ordering: .releasing)
    return connection
  }

  static func connect(path: String, now: time_t?, patience: Int64) -> Connection {
    let folder = parentFolder(of: path)
    var warnings: [String]
    do {
      warnings = try PrivateFiles.prepareFolder(folder)
      try createPrivateFile(path)
      for file in [path, path + "-wal", path + "-shm"] { warnings += try PrivateFiles.checkFile(file) }
    } catch  where error.unsafe {
      return memoryConnection(
        warning: "\(error.message), so \(path) is not used: progress and settings will not be saved")
    } catch {
      return cannotWrite(path, "cannot write to \(folder)", because: error.message)
    }
    let deadline = monotonicMilliseconds() + patience
    var movedAside = false
    var attempt = 0
    while true {
      attempt += 1
      let opened = inode(path)
      do {
        return Connection(try openWritable(path), path: path, warnings: warnings, canCheckpoint: true)
      } catch  where isCorruption(error) && !movedAside {
        // Another Reckon may have replaced the damaged file already: never move its fresh one.
        guard inode(path) == opened else { continue }
        do throws(FileProblem) {
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
              warning: "\(path) is damaged and could not be replaced: progress and settings will not be saved")
          }
          usleep(20_000)
        }
      } catch  where isPassing(error, attempt: attempt) && monotonicMilliseconds() < deadline {
        usleep(useconds_t(min(attempt, 10) * 20_000))
      } catch {
        return cannotWrite(path, "cannot open \(path) for writing", because: describe(error))
      }
    }
  }

  /// The database, in WAL mode, migrated, with a 10 s busy timeout (another Reckon may be
  /// writing: wait, don't fail) and foreign keys on.
  static func openWritable(_ path: String) throws(SQLiteError) -> Database {
    let db = try Database(path)
    db.setBusyTimeout(milliseconds: 10_000)
    try db.enableWAL()
    try db.execute("PRAGMA foreign_keys = ON")
    try Schema.migrator.migrate(db)
    return db
  }

  /// For a database that cannot be written: read-only if there is one to read, else in
  /// memory; the warning says why (a full disk rather than the error it caused).
  static func cannotWrite(_ path: String, _ what: String, because reason: String) -> Connection {
    let why = "\(what) (\(diskFull(parentFolder(of: path)) ? "the disk is full" : reason))"
    return readOnlyConnection(path, warning: why)
      ?? memoryConnection(warning: why + ": progress and settings will not be saved")
  }

  /// The saved database, only to read, when it cannot be written (a full disk, a read-only
  /// folder): what the user has done can still be shown, and new progress is kept by the
  /// session until it can be saved. Nil when there is none or it cannot be read either.
  static func readOnly(_ path: String, warning: String) -> SQLiteStore? {
    guard let connection = readOnlyConnection(path, warning: warning) else { return nil }
    return SQLiteStore(connection)
  }

  /// Read as `immutable` if need be: a read-only folder cannot hold WAL's -shm file.
  static func readOnlyConnection(_ path: String, warning: String) -> Connection? {
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
        warnings: [warning + ": your saved progress can be read, but nothing new can be saved for now"])
    }
    return nil
  }

  static func memoryConnection(warning: String? = nil) -> Connection {
    // An in-memory database cannot fail to open; migrations on an empty one cannot fail either.
    let db = try! Database.inMemory()
    try! db.execute("PRAGMA foreign_keys = ON")
    try! Schema.migrator.migrate(db)
    return Connection(db, path: nil, warnings: warning.map { [$0] } ?? [])
  }

  /// Characters a `file:` URI would read as its own.
  static func needsEscaping(_ path: String) -> Bool { path.utf8.contains { $0 == 0x3F || $0 == 0x23 || $0 == 0x25 } }

  /// Whether the file system holding `folder` has no room left for an ordinary user.
  static func diskFull(_ folder: String) -> Bool {
    var info = statvfs()
    return statvfs(folder, &info) == 0 && info.f_bavail == 0
  }

  /// The file's inode number, to tell a file from the one that replaced it.
  static func inode(_ path: String) -> UInt64? {
    var info = stat()
    return stat(path, &info) == 0 ? UInt64(info.st_ino) : nil
  }

  static func isCorruption(_ error: SQLiteError) -> Bool {
    error.is(.notADatabase) || error.is(.corrupt)
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
    let immutable = access(path + "-wal", F_OK) != 0 && !needsEscaping(path)
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

  static func settings(from statement: Statement) throws(SQLiteError) -> SavedSettings {
    let rows = try statement.all { (row) throws(SQLiteError) in (try row[0] as String, try row[1] as String) }
    return SavedSettings(rows, uniquingKeysWith: { $1 })
  }

  // MARK: Store

  public func prepareToSave() -> [String] {
    state.withLock { state in
      let connection = connection(&state)
      guard !connection.warningsTaken else { return [] }
      connection.warningsTaken = true
      return connection.warnings
    }
  }

  /// The opening warnings, the first time they are asked for.
  public func takeWarnings() -> [String] {
    // The store gives its warnings once: after that there are none to take.
    guard mayHaveWarnings.exchange(false, ordering: .acquiring) else { return [] }
    return state.withLock { state in
      guard case .open(let connection) = state, !connection.warningsTaken else { return [] }
      connection.warningsTaken = true
      return connection.warnings
    }
  }

  public var mayHaveSavedData: Bool { isOpen || fileExists }

  public func settings(profile: String) throws(StoreError) -> SavedSettings {
    if let file, !isOpen {
      guard fileExists else { return [:] }
      if let settings = SQLiteStore.quickSettings(path: file, profile: profile) { return settings }
    }
    return try read(ifNothingSaved: [:]) { (db) throws(SQLiteError) in
      let statement = try db.cached(SQLiteStore.settingsQuery)
      try statement.bind(profile)
      return try SQLiteStore.settings(from: statement)
    }
  }

  public func saveSetting(_ key: String, value: String, profile: String, at milliseconds: Int64) throws(StoreError) {
    try write { (db) throws(SQLiteError) in
      try SQLiteStore.ensureProfile(profile, at: milliseconds, in: db)
      try db.run(
        """
        INSERT INTO setting (profile, key, value) VALUES (?, ?, ?)
        ON CONFLICT (profile, key) DO UPDATE SET value = excluded.value
        """, profile, key, value)
    }
  }

  public func addProfile(_ name: String, at milliseconds: Int64) throws(StoreError) {
    try write { (db) throws(SQLiteError) in try SQLiteStore.ensureProfile(name, at: milliseconds, in: db) }
  }

  public func profiles() throws(StoreError) -> [ProfileSummary] {
    try read(ifNothingSaved: []) { (db) throws(SQLiteError) in
      try db.all(
        """
        SELECT p.name, COUNT(a.id) AS answers, MAX(a.day) AS lastDay
        FROM profile p LEFT JOIN answer a ON a.profile = p.name
        GROUP BY p.name ORDER BY p.name COLLATE NOCASE, p.name
        """
      ) { (row) throws(SQLiteError) in
        ProfileSummary(name: try row[0], answers: try row[1], lastDay: (try row[2] as Int?).map(Day.init(number:)))
      }
    }
  }

  @discardableResult
  public func record(_ answer: AnswerRecord, learning: Leitner?) throws(StoreError) -> FactState? {
    try write { (db) throws(SQLiteError) -> FactState? in
      try SQLiteStore.ensureProfile(answer.profile, at: answer.answeredAt, in: db)
      try SQLiteStore.insert(answer, in: db)
      guard let learning else { return nil }
      let current = try db.first(
        "SELECT box, dueAt FROM factState WHERE profile = ? AND mode = ? AND item = ?", answer.profile, answer.mode,
        answer.item
      ) { (row) throws(SQLiteError) in FactState(box: try row[0], dueAt: try row[1]) }
      let next = learning.next(after: current, correct: answer.correct, at: answer.answeredAt)
      try db.run(
        """
        INSERT INTO factState (profile, mode, item, box, dueAt) VALUES (?, ?, ?, ?, ?)
        ON CONFLICT (profile, mode, item) DO UPDATE SET box = excluded.box, dueAt = excluded.dueAt
        """, answer.profile, answer.mode, answer.item, next.box, next.dueAt)
      return next
    }
  }

  public func setBack(item: String, profile: String, mode: String, at milliseconds: Int64) throws(StoreError) {
    try write { (db) throws(SQLiteError) in
      try SQLiteStore.ensureProfile(profile, at: milliseconds, in: db)
      try db.run(
        """
        INSERT INTO factState (profile, mode, item, box, dueAt, shown) VALUES (?, ?, ?, 1, ?, 1)
        ON CONFLICT (profile, mode, item) DO UPDATE SET box = 1, dueAt = excluded.dueAt, shown = shown + 1
        """, profile, mode, item, milliseconds)
    }
  }

  public func factStates(profile: String, mode: String) throws(StoreError) -> [String: FactState] {
    try read(ifNothingSaved: [:]) { (db) throws(SQLiteError) in
      let rows = try db.all("SELECT item, box, dueAt FROM factState WHERE profile = ? AND mode = ?", profile, mode) {
        (row) throws(SQLiteError) in (try row[0] as String, FactState(box: try row[1], dueAt: try row[2]))
      }
      return Dictionary(rows, uniquingKeysWith: { $1 })
    }
  }

  public func itemTotals(profile: String, mode: String) throws(StoreError) -> [String: ItemTotals] {
    try read(ifNothingSaved: [:]) { (db) throws(SQLiteError) in
      let rows = try db.all(
        """
        SELECT item, SUM(answered) AS answered, SUM(right) AS right, SUM(milliseconds) AS milliseconds,
          SUM(shown) AS shown
        FROM (
          SELECT item, COUNT(*) AS answered, SUM(correct) AS right, SUM(milliseconds) AS milliseconds, 0 AS shown
          FROM answer WHERE profile = ? AND mode = ? GROUP BY item
          UNION ALL
          SELECT item, 0, 0, 0, shown FROM factState WHERE profile = ? AND mode = ? AND shown > 0
        ) GROUP BY item
        """, profile, mode, profile, mode
      ) { (row) throws(SQLiteError) in
        (
          try row[0] as String,
          ItemTotals(answered: try row[1], right: try row[2], milliseconds: try row[3], shown: try row[4])
        )
      }
      return Dictionary(rows, uniquingKeysWith: { $1 })
    }
  }

  public func activity(profile: String, mode: String, from first: Day) throws(StoreError) -> [DayActivity] {
    try read(ifNothingSaved: []) { (db) throws(SQLiteError) in
      try db.all(
        """
        SELECT day, COUNT(*) AS answered, SUM(correct) AS right FROM answer
        WHERE profile = ? AND mode = ? AND day >= ? GROUP BY day ORDER BY day
        """, profile, mode, first.number
      ) { (row) throws(SQLiteError) in
        DayActivity(day: Day(number: try row[0]), answered: try row[1], right: try row[2])
      }
    }
  }

  public func practiceDays(profile: String, mode: String) throws(StoreError) -> [Day] {
    try read(ifNothingSaved: []) { (db) throws(SQLiteError) in
      try db.all("SELECT DISTINCT day FROM answer WHERE profile = ? AND mode = ? ORDER BY day DESC", profile, mode) {
        (row) throws(SQLiteError) in Day(number: try row[0])
      }
    }
  }

  public func answerGroups(profile: String, mode: String) throws(StoreError) -> [AnswerGroup] {
    try read(ifNothingSaved: []) { (db) throws(SQLiteError) in
      try db.all(
        """
        SELECT difficulty, category, COUNT(*) AS answered, SUM(correct) AS right FROM answer
        WHERE profile = ? AND mode = ? AND difficulty IS NOT NULL AND category IS NOT NULL
        GROUP BY difficulty, category
        """, profile, mode
      ) { (row) throws(SQLiteError) in
        AnswerGroup(difficulty: try row[0], category: try row[1], answered: try row[2], right: try row[3])
      }
    }
  }

  static let dailyColumns = "profile, day, difficulty, item, elapsed, finished, correct, given, updatedAt"

  public func dailyChallenges(profile: String, from first: Day, through last: Day) throws(StoreError) -> [DailyRecord] {
    try read(ifNothingSaved: []) { (db) throws(SQLiteError) in
      try db.all(
        """
        SELECT \(SQLiteStore.dailyColumns) FROM daily WHERE profile = ? AND day BETWEEN ? AND ? ORDER BY day,
          CASE difficulty WHEN 'easy' THEN 0 WHEN 'medium' THEN 1 ELSE 2 END
        """, profile, first.number, last.number, row: SQLiteStore.daily)
    }
  }

  @discardableResult
  public func saveDaily(_ challenge: DailyRecord, answer: AnswerRecord?) throws(StoreError) -> DailyRecord {
    try write { (db) throws(SQLiteError) -> DailyRecord in
      try SQLiteStore.ensureProfile(challenge.profile, at: challenge.updatedAt, in: db)
      if let saved = try db.first(
        "SELECT \(SQLiteStore.dailyColumns) FROM daily WHERE profile = ? AND day = ? AND difficulty = ?",
        challenge.profile, challenge.day.number, challenge.difficulty, row: SQLiteStore.daily), saved.finished
      {
        return saved
      }
      try db.run(
        """
        INSERT INTO daily (profile, day, difficulty, item, elapsed, finished, correct, given, updatedAt)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (profile, day, difficulty) DO UPDATE SET item = excluded.item, elapsed = excluded.elapsed,
          finished = excluded.finished, correct = excluded.correct, given = excluded.given,
          updatedAt = excluded.updatedAt
        """, challenge.profile, challenge.day.number, challenge.difficulty, challenge.item,
        challenge.elapsedMilliseconds, challenge.finished, challenge.correct, challenge.given, challenge.updatedAt)
      if let answer { try SQLiteStore.insert(answer, in: db) }
      return challenge
    }
  }

  public func savePersonality(_ result: PersonalityRecord) throws(StoreError) {
    try write { (db) throws(SQLiteError) in
      try SQLiteStore.ensureProfile(result.profile, at: result.takenAt, in: db)
      try db.run(
        """
        INSERT INTO personality (profile, quiz, title, outcome, symbol, runnerUp, takenAt, day)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        """, result.profile, result.quiz, result.title, result.outcome, result.symbol, result.runnerUp,
        result.takenAt, result.day.number)
    }
  }

  public func personalityResults(profile: String) throws(StoreError) -> [PersonalityRecord] {
    try read(ifNothingSaved: []) { (db) throws(SQLiteError) in
      try db.all(
        """
        SELECT profile, quiz, title, outcome, symbol, runnerUp, takenAt, day FROM personality
        WHERE profile = ? ORDER BY takenAt, id
        """, profile
      ) { (row) throws(SQLiteError) in
        PersonalityRecord(
          profile: try row[0], quiz: try row[1], title: try row[2], outcome: try row[3], symbol: try row[4],
          runnerUp: try row[5], takenAt: try row[6], day: Day(number: try row[7]))
      }
    }
  }

  public func saveAnagramRound(_ round: AnagramRecord) throws(StoreError) {
    try write { (db) throws(SQLiteError) in
      try SQLiteStore.ensureProfile(round.profile, at: round.startedAt, in: db)
      try db.run(
        """
        INSERT INTO anagramRound (profile, startedAt, day, level, score, solved, played, finished)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (profile, startedAt) DO UPDATE SET score = excluded.score, solved = excluded.solved,
          played = excluded.played, finished = excluded.finished
        """, round.profile, round.startedAt, round.day.number, round.level, round.score, round.solved, round.played,
        round.finished)
    }
  }

  public func anagramRounds(profile: String) throws(StoreError) -> [AnagramRecord] {
    try read(ifNothingSaved: []) { (db) throws(SQLiteError) in
      try db.all(
        """
        SELECT profile, startedAt, day, level, score, solved, played, finished FROM anagramRound
        WHERE profile = ? ORDER BY startedAt
        """, profile
      ) { (row) throws(SQLiteError) in
        AnagramRecord(
          profile: try row[0], startedAt: try row[1], day: Day(number: try row[2]), level: try row[3],
          score: try row[4], solved: try row[5], played: try row[6], finished: try row[7])
      }
    }
  }

  static func daily(_ row: Row) throws(SQLiteError) -> DailyRecord {
    DailyRecord(
      profile: try row[0], day: Day(number: try row[1]), difficulty: try row[2], item: try row[3],
      elapsedMilliseconds: try row[4], finished: try row[5], correct: try row[6], given: try row[7],
      updatedAt: try row[8])
  }

  static func insert(_ answer: AnswerRecord, in db: Database) throws(SQLiteError) {
    try db.run(
      """
      INSERT INTO answer (profile, mode, item, given, correct, milliseconds, answeredAt, day, category, difficulty)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """, answer.profile, answer.mode, answer.item, answer.given, answer.correct, answer.milliseconds,
      answer.answeredAt, answer.day.number, answer.category, answer.difficulty)
  }

  static func ensureProfile(_ name: String, at milliseconds: Int64, in db: Database) throws(SQLiteError) {
    try db.run("INSERT INTO profile (name, createdAt) VALUES (?, ?) ON CONFLICT (name) DO NOTHING", name, milliseconds)
  }

  // MARK: Reading and writing

  /// Runs `body` on the database, opening it if there is one; `ifNothingSaved` when there is
  /// no database yet (nothing is created for a read).
  func read<T: Sendable>(ifNothingSaved empty: T, _ body: (Database) throws(SQLiteError) -> T) throws(StoreError) -> T {
    try state.withLock { (state) throws(StoreError) -> T in
      if case .waiting = state, !fileExists { return empty }
      let db = connection(&state).db
      do throws(SQLiteError) {
        return try body(db)
      } catch {
        throw StoreError(SQLiteStore.describe(error))
      }
    }
  }

  /// Runs `body` on the database, opening (or creating) it if need be: for tests.
  func withDatabase<T: Sendable>(_ body: (Database) throws(SQLiteError) -> T) throws(SQLiteError) -> T {
    try state.withLock { (state) throws(SQLiteError) -> T in try body(connection(&state).db) }
  }

  /// Runs `body` in one `BEGIN IMMEDIATE` transaction, creating the database if need be:
  /// when this returns, what it wrote is committed.
  func write<T: Sendable>(_ body: (Database) throws(SQLiteError) -> T) throws(StoreError) -> T {
    let (result, checkpoint) = try state.withLock { (state) throws(StoreError) -> (T, String?) in
      let connection = connection(&state)
      let db = connection.db
      let result: T
      do throws(SQLiteError) {
        result = try db.transaction(.immediate) { () throws(SQLiteError) -> T in try body(db) }
      } catch {
        throw StoreError(SQLiteStore.describe(error))
      }
      guard connection.canCheckpoint else { return (result, nil) }
      connection.writes += 1
      guard connection.writes >= SQLiteStore.writesPerCheckpoint else { return (result, nil) }
      connection.writes = 0
      return (result, connection.path)
    }
    if let checkpoint { checkpointInBackground(checkpoint) }
    return result
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
        db.setBusyTimeout(milliseconds: 1000)  // its read of the header may meet a WAL recovery
        _ = try? db.checkpoint(.passive)
      }
      checkpointing.store(false, ordering: .releasing)
    }
    if !started { checkpointing.store(false, ordering: .releasing) }
  }

  static func describe(_ error: SQLiteError) -> String {
    if error.is(.full) { return "the disk is full" }
    if error.is(.readOnly) || error.is(.permission) || error.is(.cantOpen) {
      return "the database cannot be written here"
    }
    if error.is(.busy) || error.is(.locked) { return "the database is busy in another Reckon" }
    return error.message
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
