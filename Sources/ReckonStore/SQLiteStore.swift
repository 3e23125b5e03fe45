import Foundation
import GRDB
import ReckonSession
import Synchronization

/// The session's store in one SQLite file, through GRDB: WAL mode and a busy timeout, so
/// several Reckon processes can share it; each write is its own transaction.
///
/// Opening never fails: a database that is not one is moved aside (with a timestamp) and a
/// fresh one started; a folder that cannot be written gives an in-memory database. Either
/// way `warnings` says what happened, once, in words for the user.
public final class SQLiteStore: Store, @unchecked Sendable {
  let writer: any DatabaseWriter
  /// The file, or nil when nothing is being saved (in memory).
  public let path: String?
  /// What went wrong while opening, for the user.
  public let warnings: [String]

  init(writer: any DatabaseWriter, path: String?, warnings: [String]) {
    self.writer = writer
    self.path = path
    self.warnings = warnings
  }

  /// Opens or creates the database at `path` (its folder is created 0700, the file 0600).
  /// `now` names a corrupt file moved aside.
  ///
  /// Several Reckons may start at once on one file: while one sets up WAL mode or runs the
  /// migrations, the others find it locked, or find a table another has just made. Those
  /// are passing states, so opening tries again (for up to `patience` seconds) before it
  /// gives up and runs in memory.
  public static func open(path: String, now: Date = Date(), patience: Double = 15) -> SQLiteStore {
    let folder = (path as NSString).deletingLastPathComponent
    do {
      try createPrivateFolder(folder)
      try createPrivateFile(path)
    } catch {
      return cannotWrite(path, "cannot write to \(folder)", because: error.message)
    }
    let deadline = Date().addingTimeInterval(patience)
    var warnings: [String] = []
    var attempt = 0
    while true {
      attempt += 1
      let opened = inode(path)
      do {
        return SQLiteStore(writer: try openPool(path), path: path, warnings: warnings)
      } catch let error as DatabaseError where isCorruption(error) && warnings.isEmpty {
        // Another Reckon may have replaced the damaged file already: never move its fresh one.
        guard inode(path) == opened else { continue }
        let aside = path + ".corrupt-" + timestamp(now)
        do {
          try moveAside(path, to: aside)
          try createPrivateFile(path)
          warnings.append(
            "\(path) was damaged (\(error.message ?? "not a database")); it was moved to \(aside) and a fresh one started"
          )
        } catch {
          // Another Reckon may have moved it aside first: open what is there now.
          guard Date() < deadline, access(path, F_OK) == 0 || (try? createPrivateFile(path)) != nil else {
            return inMemory(
              warning: "\(path) is damaged and could not be replaced: progress and settings will not be saved")
          }
          usleep(20_000)
        }
      } catch let error as DatabaseError where isPassing(error, attempt: attempt) && Date() < deadline {
        usleep(useconds_t(min(attempt, 10) * 20_000))
      } catch {
        return cannotWrite(path, "cannot open \(path) for writing", because: describe(error))
      }
    }
  }

  /// A store for a database that cannot be written: read-only if there is one to read,
  /// else in memory; the warning says why (a full disk rather than the error it caused).
  static func cannotWrite(_ path: String, _ what: String, because reason: String) -> SQLiteStore {
    let folder = (path as NSString).deletingLastPathComponent
    let why = "\(what) (\(diskFull(folder) ? "the disk is full" : reason))"
    return readOnly(path, warning: why) ?? inMemory(warning: why + ": progress and settings will not be saved")
  }

  /// The saved database, only to read, when it cannot be written (a full disk, a read-only
  /// folder): what the user has done can still be shown, and new progress is kept by the
  /// session until it can be saved. Nil when there is none or it cannot be read either.
  /// Read as `immutable` if need be: a read-only folder cannot hold WAL's -shm file.
  static func readOnly(_ path: String, warning: String) -> SQLiteStore? {
    var info = stat()
    guard stat(path, &info) == 0, info.st_size > 0 else { return nil }
    var configuration = Configuration()
    configuration.readonly = true
    for name in [path, "file:" + path + "?immutable=1"] where !(name != path && path.contains { "?#%".contains($0) }) {
      guard let queue = try? DatabaseQueue(path: name, configuration: configuration),
        (try? queue.read { db in try Schema.migrator.hasCompletedMigrations(db) }) == true
      else { continue }
      return SQLiteStore(
        writer: queue, path: path,
        warnings: [warning + ": your saved progress can be read, but nothing new can be saved for now"])
    }
    return nil
  }

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

  /// A store that keeps nothing after the process ends.
  public static func inMemory(warning: String? = nil) -> SQLiteStore {
    // An in-memory queue cannot fail to open; migrations on an empty database cannot fail either.
    let queue = try! DatabaseQueue()
    try! Schema.migrator.migrate(queue)
    return SQLiteStore(writer: queue, path: nil, warnings: warning.map { [$0] } ?? [])
  }

  static func openPool(_ path: String) throws -> DatabasePool {
    var configuration = Configuration()
    configuration.busyMode = .timeout(10)  // another Reckon may be writing: wait, don't fail
    configuration.foreignKeysEnabled = true
    let pool = try DatabasePool(path: path, configuration: configuration)
    try Schema.migrator.migrate(pool)
    return pool
  }

  static func isCorruption(_ error: DatabaseError) -> Bool {
    error.resultCode == .SQLITE_NOTADB || error.resultCode == .SQLITE_CORRUPT
  }

  /// Errors another Reckon opening the same file at the same moment can cause: a lock, or
  /// (SQLITE_ERROR) a table or column it has just created. Worth trying again.
  static func isPassing(_ error: DatabaseError, attempt: Int) -> Bool {
    switch error.resultCode {
    case .SQLITE_BUSY, .SQLITE_LOCKED: true
    case .SQLITE_ERROR: attempt <= 10  // a schema this Reckon cannot read stays an error
    default: false
    }
  }

  // MARK: Store

  private let lock = NSLock()
  private var warningsTaken = false

  public func prepareToSave() -> [String] { takeWarnings() }

  /// The opening warnings, the first time they are asked for.
  public func takeWarnings() -> [String] {
    lock.lock()
    defer { lock.unlock() }
    guard !warningsTaken else { return [] }
    warningsTaken = true
    return warnings
  }

  public func settings(profile: String) throws(StoreError) -> SavedSettings {
    try run { db in
      let rows = try Row.fetchAll(db, sql: "SELECT key, value FROM setting WHERE profile = ?", arguments: [profile])
      return SavedSettings(rows.map { (key: $0["key"], value: $0["value"]) })
    }
  }

  public func saveSetting(_ key: String, value: String, profile: String, at milliseconds: Int64) throws(StoreError) {
    try write { db in
      try SQLiteStore.ensureProfile(profile, at: milliseconds, in: db)
      try db.execute(
        sql:
          "INSERT INTO setting (profile, key, value) VALUES (?, ?, ?) ON CONFLICT (profile, key) DO UPDATE SET value = excluded.value",
        arguments: [profile, key, value])
    }
  }

  public func addProfile(_ name: String, at milliseconds: Int64) throws(StoreError) {
    try write { db in try SQLiteStore.ensureProfile(name, at: milliseconds, in: db) }
  }

  public func profiles() throws(StoreError) -> [ProfileSummary] {
    try run { db in
      let rows = try Row.fetchAll(
        db,
        sql: """
          SELECT p.name, COUNT(a.id) AS answers, MAX(a.day) AS lastDay
          FROM profile p LEFT JOIN answer a ON a.profile = p.name
          GROUP BY p.name ORDER BY p.name COLLATE NOCASE, p.name
          """)
      return rows.map { row in
        let lastDay: Int? = row["lastDay"]
        return ProfileSummary(name: row["name"], answers: row["answers"], lastDay: lastDay.map(Day.init(number:)))
      }
    }
  }

  @discardableResult
  public func record(_ answer: AnswerRecord, learning: Leitner?) throws(StoreError) -> FactState? {
    try write { db in
      try SQLiteStore.ensureProfile(answer.profile, at: answer.answeredAt, in: db)
      try SQLiteStore.insert(answer, in: db)
      guard let learning else { return nil }
      let key: StatementArguments = [answer.profile, answer.mode, answer.item]
      let current = try Row.fetchOne(
        db, sql: "SELECT box, dueAt FROM factState WHERE profile = ? AND mode = ? AND item = ?", arguments: key
      ).map { FactState(box: $0["box"], dueAt: $0["dueAt"]) }
      let next = learning.next(after: current, correct: answer.correct, at: answer.answeredAt)
      try SQLiteStore.saveState(next, of: answer.item, profile: answer.profile, mode: answer.mode, in: db)
      return next
    }
  }

  public func setBack(item: String, profile: String, mode: String, at milliseconds: Int64) throws(StoreError) {
    try write { db in
      try SQLiteStore.ensureProfile(profile, at: milliseconds, in: db)
      try db.execute(
        sql: """
          INSERT INTO factState (profile, mode, item, box, dueAt, shown) VALUES (?, ?, ?, 1, ?, 1)
          ON CONFLICT (profile, mode, item) DO UPDATE SET box = 1, dueAt = excluded.dueAt, shown = shown + 1
          """,
        arguments: [profile, mode, item, milliseconds])
    }
  }

  public func factStates(profile: String, mode: String) throws(StoreError) -> [String: FactState] {
    try run { db in
      let rows = try Row.fetchAll(
        db, sql: "SELECT item, box, dueAt FROM factState WHERE profile = ? AND mode = ?", arguments: [profile, mode])
      return Dictionary(
        rows.map { ($0["item"] as String, FactState(box: $0["box"], dueAt: $0["dueAt"])) }, uniquingKeysWith: { $1 })
    }
  }

  public func itemTotals(profile: String, mode: String) throws(StoreError) -> [String: ItemTotals] {
    try run { db in
      let rows = try Row.fetchAll(
        db,
        sql: """
          SELECT item, SUM(answered) AS answered, SUM(right) AS right, SUM(milliseconds) AS milliseconds,
            SUM(shown) AS shown
          FROM (
            SELECT item, COUNT(*) AS answered, SUM(correct) AS right, SUM(milliseconds) AS milliseconds, 0 AS shown
            FROM answer WHERE profile = ? AND mode = ? GROUP BY item
            UNION ALL
            SELECT item, 0, 0, 0, shown FROM factState WHERE profile = ? AND mode = ? AND shown > 0
          ) GROUP BY item
          """,
        arguments: [profile, mode, profile, mode])
      return Dictionary(
        rows.map {
          (
            $0["item"] as String,
            ItemTotals(
              answered: $0["answered"], right: $0["right"], milliseconds: $0["milliseconds"], shown: $0["shown"])
          )
        }, uniquingKeysWith: { $1 })
    }
  }

  public func activity(profile: String, mode: String, from first: Day) throws(StoreError) -> [DayActivity] {
    try run { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT day, COUNT(*) AS answered, SUM(correct) AS right FROM answer
          WHERE profile = ? AND mode = ? AND day >= ? GROUP BY day ORDER BY day
          """,
        arguments: [profile, mode, first.number]
      ).map { DayActivity(day: Day(number: $0["day"]), answered: $0["answered"], right: $0["right"]) }
    }
  }

  public func practiceDays(profile: String, mode: String) throws(StoreError) -> [Day] {
    try run { db in
      try Int.fetchAll(
        db, sql: "SELECT DISTINCT day FROM answer WHERE profile = ? AND mode = ? ORDER BY day DESC",
        arguments: [profile, mode]
      ).map(Day.init(number:))
    }
  }

  public func answerGroups(profile: String, mode: String) throws(StoreError) -> [AnswerGroup] {
    try run { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT difficulty, category, COUNT(*) AS answered, SUM(correct) AS right FROM answer
          WHERE profile = ? AND mode = ? AND difficulty IS NOT NULL AND category IS NOT NULL
          GROUP BY difficulty, category
          """,
        arguments: [profile, mode]
      ).map {
        AnswerGroup(
          difficulty: $0["difficulty"], category: $0["category"], answered: $0["answered"], right: $0["right"])
      }
    }
  }

  public func dailyChallenges(profile: String, from first: Day, through last: Day) throws(StoreError) -> [DailyRecord] {
    try run { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT * FROM daily WHERE profile = ? AND day BETWEEN ? AND ? ORDER BY day,
            CASE difficulty WHEN 'easy' THEN 0 WHEN 'medium' THEN 1 ELSE 2 END
          """,
        arguments: [profile, first.number, last.number]
      ).map(SQLiteStore.daily)
    }
  }

  @discardableResult
  public func saveDaily(_ challenge: DailyRecord, answer: AnswerRecord?) throws(StoreError) -> DailyRecord {
    try write { db in
      try SQLiteStore.ensureProfile(challenge.profile, at: challenge.updatedAt, in: db)
      let key: StatementArguments = [challenge.profile, challenge.day.number, challenge.difficulty]
      if let saved = try Row.fetchOne(
        db, sql: "SELECT * FROM daily WHERE profile = ? AND day = ? AND difficulty = ?", arguments: key
      ).map(SQLiteStore.daily), saved.finished {
        return saved
      }
      try db.execute(
        sql: """
          INSERT INTO daily (profile, day, difficulty, item, elapsed, finished, correct, given, updatedAt)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
          ON CONFLICT (profile, day, difficulty) DO UPDATE SET item = excluded.item, elapsed = excluded.elapsed,
            finished = excluded.finished, correct = excluded.correct, given = excluded.given,
            updatedAt = excluded.updatedAt
          """,
        arguments: [
          challenge.profile, challenge.day.number, challenge.difficulty, challenge.item,
          challenge.elapsedMilliseconds, challenge.finished, challenge.correct, challenge.given, challenge.updatedAt,
        ])
      if let answer { try SQLiteStore.insert(answer, in: db) }
      return challenge
    }
  }

  public func savePersonality(_ result: PersonalityRecord) throws(StoreError) {
    try write { db in
      try SQLiteStore.ensureProfile(result.profile, at: result.takenAt, in: db)
      try db.execute(
        sql: """
          INSERT INTO personality (profile, quiz, title, outcome, symbol, runnerUp, takenAt, day)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?)
          """,
        arguments: [
          result.profile, result.quiz, result.title, result.outcome, result.symbol, result.runnerUp, result.takenAt,
          result.day.number,
        ])
    }
  }

  public func personalityResults(profile: String) throws(StoreError) -> [PersonalityRecord] {
    try run { db in
      try Row.fetchAll(
        db, sql: "SELECT * FROM personality WHERE profile = ? ORDER BY takenAt, id", arguments: [profile]
      )
      .map {
        PersonalityRecord(
          profile: $0["profile"], quiz: $0["quiz"], title: $0["title"], outcome: $0["outcome"],
          symbol: $0["symbol"], runnerUp: $0["runnerUp"], takenAt: $0["takenAt"], day: Day(number: $0["day"]))
      }
    }
  }

  public func saveAnagramRound(_ round: AnagramRecord) throws(StoreError) {
    try write { db in
      try SQLiteStore.ensureProfile(round.profile, at: round.startedAt, in: db)
      try db.execute(
        sql: """
          INSERT INTO anagramRound (profile, startedAt, day, level, score, solved, played, finished)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?)
          ON CONFLICT (profile, startedAt) DO UPDATE SET score = excluded.score, solved = excluded.solved,
            played = excluded.played, finished = excluded.finished
          """,
        arguments: [
          round.profile, round.startedAt, round.day.number, round.level, round.score, round.solved, round.played,
          round.finished,
        ])
    }
  }

  public func anagramRounds(profile: String) throws(StoreError) -> [AnagramRecord] {
    try run { db in
      try Row.fetchAll(db, sql: "SELECT * FROM anagramRound WHERE profile = ? ORDER BY startedAt", arguments: [profile])
        .map {
          AnagramRecord(
            profile: $0["profile"], startedAt: $0["startedAt"], day: Day(number: $0["day"]), level: $0["level"],
            score: $0["score"], solved: $0["solved"], played: $0["played"], finished: $0["finished"])
        }
    }
  }

  static func daily(_ row: Row) -> DailyRecord {
    DailyRecord(
      profile: row["profile"], day: Day(number: row["day"]), difficulty: row["difficulty"], item: row["item"],
      elapsedMilliseconds: row["elapsed"], finished: row["finished"], correct: row["correct"], given: row["given"],
      updatedAt: row["updatedAt"])
  }

  static func insert(_ answer: AnswerRecord, in db: Database) throws {
    try db.execute(
      sql: """
        INSERT INTO answer (profile, mode, item, given, correct, milliseconds, answeredAt, day, category, difficulty)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """,
      arguments: [
        answer.profile, answer.mode, answer.item, answer.given, answer.correct, answer.milliseconds,
        answer.answeredAt, answer.day.number, answer.category, answer.difficulty,
      ])
  }

  static func saveState(_ state: FactState, of item: String, profile: String, mode: String, in db: Database) throws {
    try db.execute(
      sql: """
        INSERT INTO factState (profile, mode, item, box, dueAt) VALUES (?, ?, ?, ?, ?)
        ON CONFLICT (profile, mode, item) DO UPDATE SET box = excluded.box, dueAt = excluded.dueAt
        """,
      arguments: [profile, mode, item, state.box, state.dueAt])
  }

  static func ensureProfile(_ name: String, at milliseconds: Int64, in db: Database) throws {
    try db.execute(
      sql: "INSERT INTO profile (name, createdAt) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
      arguments: [name, milliseconds])
  }

  // MARK: Helpers

  func run<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
    do {
      return try writer.read(body)
    } catch {
      throw StoreError(SQLiteStore.describe(error))
    }
  }

  func write<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
    let result: T
    do {
      result = try writer.write(body)
    } catch {
      throw StoreError(SQLiteStore.describe(error))
    }
    checkpointNowAndThen()
    return result
  }

  /// Writes since the last checkpoint this Reckon started.
  private let writesSinceCheckpoint = Mutex(0)

  /// Every 50 writes, copies the WAL into the database on GRDB's writer queue, in the
  /// background. SQLite would otherwise do it inside a write once the WAL reaches 1,000
  /// pages, with an fdatasync that holds up that answer by 10–20 ms (bench/run saw it at the
  /// same two questions of every 500-question drill). In the background it costs the user
  /// nothing: the next answer is at least a human reaction away.
  private func checkpointNowAndThen() {
    guard path != nil, let pool = writer as? DatabasePool else { return }
    let due = writesSinceCheckpoint.withLock { count in
      count += 1
      if count < 50 { return false }
      count = 0
      return true
    }
    if due { pool.asyncWriteWithoutTransaction { db in _ = try? db.checkpoint(.passive) } }
  }

  static func describe(_ error: any Error) -> String {
    if let db = error as? DatabaseError {
      switch db.resultCode {
      case .SQLITE_FULL: return "the disk is full"
      case .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_CANTOPEN: return "the database cannot be written here"
      case .SQLITE_BUSY, .SQLITE_LOCKED: return "the database is busy in another Reckon"
      default: return db.message ?? "\(db.resultCode)"
      }
    }
    return "\(error)"
  }

  /// `YYYYMMDD-HHMMSS` in local time, for the name of a file moved aside.
  static func timestamp(_ date: Date) -> String {
    var seconds = time_t(date.timeIntervalSince1970)
    var parts = tm()
    localtime_r(&seconds, &parts)
    func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
    return "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))-"
      + "\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))"
  }
}
