import Foundation
import ReckonCore
import SQLite
import Testing

@testable import ReckonSession
@testable import ReckonStore

/// A mode added as ARCHITECTURE.md's "To add a mode that keeps data" says, in the test target
/// (TallyMode/: its folder's code and its SQL), registered here with the store it opens, and
/// touching no other file: its data is kept as it is typed, survives a full disk, the next
/// start, a damaged file and an older one.
@Suite struct TallyModeTests {
  static let tables = RegisteredTables.all + [TallyTables.self]

  /// A session on the database at `path`, with the tally's tables registered.
  static func session(_ path: String, store: SQLiteStore? = nil) -> (Session, SQLiteStore) {
    let store = store ?? SQLiteStore(path: path, tables: tables)
    return (Session(clock: ManualClock(), random: SeededRandom(seed: 1), store: store, profile: "ada"), store)
  }

  static func notes(_ reply: Reply) -> [String] {
    reply.outputs.compactMap { if case .note(let text) = $0 { text } else { nil } }
  }

  static func warnings(_ reply: Reply) -> [String] {
    reply.outputs.compactMap { if case .warning(let text) = $0 { text } else { nil } }
  }

  /// Runs its feature's command as the calculator's prompt runs a registered one, and enters
  /// the mode it starts.
  static func start(_ session: inout Session) throws {
    let command = try #require(TallyFeature.commands.first { $0.help.name == "tally" })
    let step = Commands.run(command, Arguments(line: "tally", nameSpan: SourceSpan(0, 5)), in: &session.state)
    guard case .enter(let mode, let reply) = step else {
      Issue.record("tally did not start: \(step.reply)")
      return
    }
    #expect(notes(reply) == ["Counting. Type a word; show, undo or quit."])
    session.mode = mode
  }

  static func counts(_ path: String) throws -> [String: Int] {
    let store = SQLiteStore.open(path: path, tables: tables)
    let counts = try store.read(TallyRequests.Counts(profile: "ada"))
    return Dictionary(uniqueKeysWithValues: counts.map { ($0.word, $0.count) })
  }

  @Test func itKeepsItsCountsAndTheCalculatorKeepsItsVariables() throws {
    let folder = try SQLiteStoreTests.Folder()
    let path = folder.path + "/reckon.sqlite"
    var (session, _) = Self.session(path)
    _ = session.handle("x = 5")
    try Self.start(&session)
    #expect(session.prompt == "tally> ")
    #expect(Self.notes(session.handle("cat")) == ["cat: 1"])
    // Saved before the reply: another connection (another Reckon) reads it at once.
    #expect(try Self.counts(path) == ["cat": 1])
    #expect(Self.notes(session.handle("  Cat ")) == ["cat: 2"])
    #expect(Self.notes(session.handle("dog")) == ["dog: 1"])
    #expect(Self.notes(session.handle("undo")) == ["dog: one fewer"])
    #expect(try Self.counts(path) == ["cat": 2, "dog": 0])
    _ = session.handle("quit")
    #expect(session.isInCalculator)
    #expect(session.handle("x").outputs == [.result("5")])

    // The next start reads them back.
    var (next, _) = Self.session(path)
    try Self.start(&next)
    #expect(next.handle("show").outputs == [.table([["word", "count"], ["cat", "2"], ["dog", "0"]])])
  }

  @Test func aFullDiskKeepsTheWritesUntilSavingWorksAgain() throws {
    let folder = try SQLiteStoreTests.Folder()
    let path = folder.path + "/reckon.sqlite"
    var (session, store) = Self.session(path)
    try Self.start(&session)
    store.failWrites(with: StoreError("the disk is full"))
    let first = session.handle("cat")
    #expect(Self.notes(first) == ["cat: 1"])
    #expect(
      Self.warnings(first) == [
        "progress is not being saved: the disk is full (Reckon keeps it and tries again with each save)"
      ])
    #expect(Self.warnings(session.handle("cat")).isEmpty)  // said once
    #expect(try Self.counts(path).isEmpty)
    store.failWrites(with: nil)
    let again = session.handle("dog")
    #expect(Self.notes(again).contains(SessionState.keptNowSaved(2)))
    #expect(try Self.counts(path) == ["cat": 2, "dog": 1])
  }

  @Test func itsTablesAreMigratedByTheirOwnCountInAnOlderFile() throws {
    // Today's release's file: no tables of the tally, no `modeTables`.
    let (folder, path) = try ReleaseFixtureTests.copy()
    let before = try ReleaseFixtureTests.dump(path)
    // The tally's first version only, as a release with it would have left it.
    let v1 = try Database(path)
    try ModeTablesMigrator.migrate(v1, [TallyTables.self], upTo: [1])
    try v1.run("INSERT INTO tally (profile, word, count) VALUES ('ada', 'owl', 3)")
    let userVersion = try v1.userVersion()
    _ = consume v1
    #expect(try Self.counts(path) == ["owl": 3])
    let db = try Database(path, flags: .readOnly)
    #expect(try db.value("SELECT version FROM modeTables WHERE name = 'tally'") == 2 as Int)
    #expect(try db.value("SELECT lastAt FROM tally WHERE word = 'owl'") == 0 as Int)
    #expect(try db.userVersion() == userVersion)  // the core schema's own count is not touched
    // Every row of the core tables is as it was.
    let after = try ReleaseFixtureTests.dump(path)
    for table in ReleaseFixtureTests.tables { #expect(after[table] == before[table], "\(table)") }
    _ = folder
  }

  @Test func aFileThatCanOnlyBeReadAndHasNoTablesOfTheModeHasNothingSaved() throws {
    let (folder, path) = try ReleaseFixtureTests.copy()
    let store = try #require(SQLiteStore.readOnly(path, warning: "cannot write to the folder", tables: Self.tables))
    #expect(try store.read(TallyRequests.Counts(profile: "ada")).isEmpty)
    _ = folder
  }

  @Test func aRequestWhoseTablesAreNotRegisteredIsAMistakeSaidAsOne() throws {
    let store = SQLiteStore.inMemory()
    let write = #expect(throws: StoreError.self) {
      try store.write(TallyRequests.Add(profile: "ada", word: "x", by: 1, at: 0))
    }
    let read = #expect(throws: StoreError.self) { try store.read(TallyRequests.Counts(profile: "ada")) }
    for error in [write, read] {
      #expect(error?.message.contains("the tables 'tally' are not registered") == true, "\(String(describing: error))")
      #expect(error?.isLasting == true)
    }
    // The session does not keep such a write (it would stop every save after it): it says
    // so once, and the saves after it go through.
    var session = Session(clock: ManualClock(), random: SeededRandom(seed: 1), store: store, profile: "ada")
    try Self.start(&session)
    let reply = session.handle("cat")
    #expect(
      Self.warnings(reply) == [
        "progress is not being saved: Reckon cannot keep this: the tables 'tally' are not registered "
          + "(RegisteredTables.all) (this cannot be saved, and is not kept)"
      ])
    #expect(session.state.unsaved.isEmpty)
    _ = session.handle("quit")
    session.state.record(mode: "drill", item: "2×3", given: "6", correct: true, milliseconds: 900)
    #expect(try store.read(Answers.Totals(profile: "ada", mode: "drill"))["2×3"]?.answered == 1)
  }

  /// A write whose SQL breaks a constraint: no later try can save it.
  struct BrokenWrite: SQLWrite {
    typealias Answer = Void
    typealias Tables = CoreTables
    func run(in db: Database) throws(SQLiteError) {
      try db.run("INSERT INTO profile (name, createdAt) VALUES (NULL, 0)")
    }
  }

  /// A write kept while the disk was full that then turns out never to be savable is dropped
  /// when it is tried again, said once, and not counted among the kept writes now saved.
  @Test func aKeptWriteThatCanNeverBeSavedIsDroppedAndTheOthersSaved() throws {
    let store = SQLiteStore.inMemory()
    var session = Session(clock: ManualClock(), random: SeededRandom(seed: 1), store: store, profile: "ada")
    store.failWrites(with: StoreError("the disk is full"))
    session.state.save(BrokenWrite())
    session.state.record(mode: "drill", item: "2×3", given: "6", correct: true, milliseconds: 900)
    #expect(session.state.unsaved.count == 2)
    #expect(
      session.state.takeNotices() == [
        .warning("progress is not being saved: the disk is full (Reckon keeps it and tries again with each save)")
      ])
    store.failWrites(with: nil)
    session.state.record(mode: "drill", item: "2×4", given: "8", correct: true, milliseconds: 900)
    let notices = session.state.takeNotices()
    #expect(notices.count == 2)
    if case .warning(let text) = notices.first {
      #expect(text.hasPrefix("a change kept since saving failed: NOT NULL constraint failed"), "\(text)")
      #expect(text.hasSuffix("(this cannot be saved, and is not kept)"), "\(text)")
    } else {
      Issue.record("\(notices)")
    }
    #expect(notices.last == .note(SessionState.keptNowSaved(1)))
    #expect(session.state.unsaved.isEmpty)
    #expect(try store.read(Answers.Totals(profile: "ada", mode: "drill")).count == 2)
  }

  /// A file with 40 tallies and 3,000 answers, one leaf page of the answers overwritten.
  static func damagedFile(in folder: SQLiteStoreTests.Folder) throws -> String {
    let path = folder.path + "/reckon.sqlite"
    do {
      let store = SQLiteStore.open(path: path, tables: tables)
      for i in 0..<40 { _ = try store.write(TallyRequests.Add(profile: "ada", word: "w\(i)", by: i + 1, at: 7)) }
      try store.withDatabase { (db) throws(SQLiteError) in
        try db.execute(
          """
          WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
          INSERT INTO answer (profile, mode, item, given, correct, milliseconds, answeredAt, day)
          SELECT 'ada', 'drill', (i % 12) || '×' || (i % 11), 'x', i % 2, 900, i, 0 FROM n
          """)
      }
    }
    // The tally's rows are elsewhere, and can all be kept.
    let leaves = try Database(path, flags: .readOnly).all(
      "SELECT pageno FROM dbstat WHERE name = 'answer' AND pagetype = 'leaf' ORDER BY pageno"
    ) { (row) throws(SQLiteError) in try row[0] as Int }
    let page = try #require(leaves.count > 10 ? leaves[leaves.count / 2] : nil)
    let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
    try handle.seek(toOffset: UInt64((page - 1) * 4096))
    try handle.write(contentsOf: Data(repeating: 0xA5, count: 4096))
    try handle.close()
    return path
  }

  static func expectAllTallies(_ store: SQLiteStore) throws {
    let counts = try store.read(TallyRequests.Counts(profile: "ada"))
    #expect(counts.count == 40)
    #expect(counts.allSatisfy { $0.count == Int($0.word.dropFirst())! + 1 && $0.lastAt == 7 })
  }

  @Test func aDamagedFileIsSalvagedWithTheModesRows() throws {
    let folder = try SQLiteStoreTests.Folder()
    let path = try Self.damagedFile(in: folder)
    let store = SQLiteStore(path: path, tables: Self.tables)
    _ = try store.read(Answers.Totals(profile: "ada", mode: "drill"))
    let notice = try #require(store.takeNotices().first)
    #expect(notice.contains("40 tallies"), "\(notice)")
    #expect(!notice.contains("modeTables"), "\(notice)")
    try Self.expectAllTallies(store)
  }

  /// A Reckon that does not know the mode (an older one, on a newer one's file) salvages its
  /// tables all the same, by their CREATE statements, with their versions: the newer Reckon
  /// finds every row.
  @Test func aReckonThatDoesNotKnowTheModeKeepsItsRowsInASalvage() throws {
    let folder = try SQLiteStoreTests.Folder()
    let path = try Self.damagedFile(in: folder)
    let older = SQLiteStore(path: path)
    _ = try older.read(Answers.Totals(profile: "ada", mode: "drill"))
    let notice = try #require(older.takeNotices().first)
    #expect(notice.contains("40 tally"), "\(notice)")
    let db = try Database(path, flags: .readOnly)
    #expect(try db.value("SELECT version FROM modeTables WHERE name = 'tally'") == 2 as Int)
    #expect(try db.value("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND tbl_name = 'tally'") == 2 as Int)
    try Self.expectAllTallies(SQLiteStore(path: path, tables: Self.tables))
  }

  /// A version of a mode's tables newer than this Reckon knows is left as it is; one below 0
  /// was written by no Reckon: the file is damaged.
  @Test func versionsItDoesNotKnowAreLeftOrSaidToBeDamage() throws {
    let db = try Database.inMemory()
    try Schema.migrator.migrate(db)
    try ModeTablesMigrator.migrate(db, [TallyTables.self], upTo: [9])
    #expect(try ModeTablesMigrator.versions([TallyTables.self], in: db) == [2])
    try db.execute("UPDATE modeTables SET version = 7")
    try ModeTablesMigrator.migrate(db, [TallyTables.self])
    #expect(try ModeTablesMigrator.versions([TallyTables.self], in: db) == [7])
    try db.execute("UPDATE modeTables SET version = -3")
    #expect(throws: SQLiteError.self) { try ModeTablesMigrator.migrate(db, [TallyTables.self]) }
    do {
      try ModeTablesMigrator.migrate(db, [TallyTables.self])
    } catch {
      #expect(error.is(.corrupt))
    }
  }
}
