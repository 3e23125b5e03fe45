import Foundation
import ReckonSession
import SQLite
import Synchronization
import Testing

@testable import ReckonStore

/// The SQLite store on real files in a temporary folder.
@Suite struct SQLiteStoreTests {
  /// A fresh temporary folder, removed at the end of the test.
  final class Folder {
    let path: String
    init() throws {
      path = FileManager.default.temporaryDirectory.appendingPathComponent("reckon-store-\(UUID().uuidString)").path
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
  }

  /// Writes a file of mode 0600, as Reckon's own are (one open to others would be tightened,
  /// with a warning of its own).
  static func writePrivate(_ data: Data, to path: String) throws {
    guard FileManager.default.createFile(atPath: path, contents: data, attributes: [.posixPermissions: 0o600]) else {
      throw CocoaError(.fileWriteUnknown)
    }
  }

  @Test func migratesAnEmptyFileAndKeepsSettingsAcrossReopening() throws {
    let folder = try Folder()
    let path = folder.path + "/data/reckon.sqlite"
    do {
      let store = SQLiteStore.open(path: path)
      #expect(store.warnings.isEmpty)
      #expect(store.path == path)
      #expect(try store.settings(profile: "ada").isEmpty)
      try store.saveSetting("digits", value: "20", profile: "ada", at: 0)
      try store.saveSetting("digits", value: "25", profile: "ada", at: 0)
      try store.saveSetting("tips", value: "12 15", profile: "bob", at: 0)
    }
    let reopened = SQLiteStore.open(path: path)
    #expect(reopened.warnings.isEmpty)
    #expect(try reopened.settings(profile: "ada") == ["digits": "25"])
    #expect(try reopened.settings(profile: "bob") == ["tips": "12 15"])
    #expect(try reopened.profiles().map(\.name) == ["ada", "bob"])
    let tables = try reopened.withDatabase { (db) throws(SQLiteError) in
      try db.all("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") {
        (row) throws(SQLiteError) in try row[0] as String
      }
    }
    #expect(Set(["profile", "setting", "answer", "factState"]).isSubset(of: Set(tables)))
  }

  /// A database that cannot be written (a full disk, a read-only folder) is still read:
  /// saved progress shows. A write first tries the file again: this one can be written, so
  /// the write goes through (as when room comes back on a disk that was full).
  @Test func aDatabaseThatCannotBeWrittenIsStillRead() throws {
    let folder = try Folder()
    let path = folder.path + "/reckon.sqlite"
    do {
      let store = SQLiteStore.open(path: path)
      try store.saveSetting("digits", value: "14", profile: "ada", at: 0)
    }
    #expect(SQLiteStore.readOnly(folder.path + "/missing.sqlite", warning: "w") == nil)
    let store = try #require(SQLiteStore.readOnly(path, warning: "cannot write to the folder"))
    #expect(
      store.warnings == [
        "cannot write to the folder: your saved progress can be read, but nothing new can be saved for now"
          + " (Reckon keeps what you do, and saves it once it can)"
      ])
    #expect(try store.settings(profile: "ada") == ["digits": "14"])
    try store.saveSetting("digits", value: "20", profile: "ada", at: 0)
    #expect(try SQLiteStore.open(path: path).settings(profile: "ada") == ["digits": "20"])
  }

  @Test func filesAreOwnerOnly() throws {
    let folder = try Folder()
    let path = folder.path + "/new/reckon.sqlite"
    let store = SQLiteStore.open(path: path)
    try store.saveSetting("digits", value: "12", profile: "ada", at: 0)
    let file = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    let dir = try FileManager.default.attributesOfItem(atPath: folder.path + "/new")[.posixPermissions] as? Int
    #expect(file == 0o600)
    #expect(dir == 0o700)
  }

  @Test func aCorruptFileIsMovedAsideAndAFreshOneStarted() throws {
    let folder = try Folder()
    let path = folder.path + "/reckon.sqlite"
    try Self.writePrivate(Data(repeating: 0x42, count: 8192), to: path)
    let store = SQLiteStore.open(path: path, now: 1_800_000_000)
    #expect(store.path == path)
    #expect(store.warnings.count == 1)
    #expect(store.warnings.first?.contains("was damaged") == true)
    let aside = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".corrupt-") }
    #expect(aside.count == 1)
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: folder.path + "/" + aside[0])) == Data(repeating: 0x42, count: 8192))
    try store.saveSetting("digits", value: "30", profile: "ada", at: 0)
    #expect(try SQLiteStore.open(path: path).settings(profile: "ada") == ["digits": "30"])
  }

  /// A folder that cannot be written: a store that reads nothing and whose writes fail with
  /// the reason (the session keeps them and tries again), until the folder can be written:
  /// then the next write opens the file and goes through.
  @Test func aFolderThatCannotBeWrittenSavesOnceItCan() throws {
    let folder = try Folder()
    // A file where the folder should be: no one, not even root, can create files below it.
    #expect(FileManager.default.createFile(atPath: folder.path + "/blocked", contents: Data("x".utf8)))
    let path = folder.path + "/blocked/reckon.sqlite"
    let store = SQLiteStore.open(path: path)
    #expect(store.path == nil)
    #expect(store.warnings.count == 1)
    #expect(store.warnings.first?.contains("nothing can be saved for now") == true)
    #expect(throws: StoreError("it is a file, not a folder", isKnown: true)) {
      try store.saveSetting("digits", value: "15", profile: "ada", at: 0)
    }
    #expect(try store.settings(profile: "ada").isEmpty)
    // Tried again at most once a second: at once, it still fails without looking.
    try FileManager.default.removeItem(atPath: folder.path + "/blocked")
    #expect(throws: StoreError("it is a file, not a folder", isKnown: true)) {
      try store.saveSetting("digits", value: "15", profile: "ada", at: 0)
    }
    usleep(1_100_000)
    try store.saveSetting("digits", value: "16", profile: "ada", at: 0)
    #expect(store.path == path)
    #expect(try store.settings(profile: "ada") == ["digits": "16"])
    #expect(try SQLiteStore.open(path: path).settings(profile: "ada") == ["digits": "16"])
  }

  @Test func twoWritersAtOnceLoseNothing() async throws {
    let folder = try Folder()
    let path = folder.path + "/reckon.sqlite"
    _ = SQLiteStore.open(path: path)
    let stores = [SQLiteStore.open(path: path), SQLiteStore.open(path: path)]
    await withTaskGroup(of: Void.self) { group in
      for (index, store) in stores.enumerated() {
        group.addTask {
          for n in 0..<200 { try? store.saveSetting("k\(index)-\(n)", value: "\(n)", profile: "p", at: 0) }
        }
      }
    }
    let settings = try SQLiteStore.open(path: path).settings(profile: "p")
    #expect(settings.count == 400)
    #expect(settings["k1-199"] == "199")
  }

  /// Several Reckons opening a new file at the same moment: each waits its turn for the
  /// WAL set-up and the migrations, and none falls back to memory.
  @Test func openingAtOnceGivesEveryoneTheFile() throws {
    for _ in 0..<5 {
      let folder = try Folder()
      let path = folder.path + "/reckon.sqlite"
      let stores = Opened()
      DispatchQueue.concurrentPerform(iterations: 4) { _ in stores.add(SQLiteStore.open(path: path)) }
      #expect(stores.all.count == 4)
      for store in stores.all {
        #expect(store.path == path)
        #expect(store.warnings.isEmpty)
      }
    }
  }

  final class Opened: @unchecked Sendable {
    private let lock = NSLock()
    private var stores: [SQLiteStore] = []
    func add(_ store: SQLiteStore) {
      lock.lock()
      stores.append(store)
      lock.unlock()
    }
    var all: [SQLiteStore] {
      lock.lock()
      defer { lock.unlock() }
      return stores
    }
  }

  /// Every 50 writes the WAL is copied into the database in the background, so the next
  /// write starts it over and it stays small: SQLite's own checkpoint, inside the commit that
  /// fills it to 1,000 pages, never comes.
  @Test func theWALIsCheckpointedInTheBackground() throws {
    let folder = try Folder()
    let path = folder.path + "/reckon.sqlite"
    let store = SQLiteStore.open(path: path)
    for n in 0..<SQLiteStore.writesPerCheckpoint {
      try store.saveSetting("k\(n)", value: "\(n)", profile: "ada", at: 0)
    }
    var waited = 0
    while store.checkpointing.load(ordering: .acquiring) && waited < 10_000 {
      usleep(1000)
      waited += 1
    }
    try store.saveSetting("one", value: "more", profile: "ada", at: 0)
    // What the WAL holds now: the last write's pages only, not 51 writes' worth.
    let (log, _) = try Database(path).checkpoint(.passive)
    #expect(log > 0)
    #expect(log <= 5)
    #expect(try store.settings(profile: "ada").count == 51)
  }

  /// Two sessions on one profile change different settings: each saves only its own, and
  /// neither undoes the other's.
  @Test func aSettingSavesOnlyItself() throws {
    let folder = try Folder()
    let path = folder.path + "/reckon.sqlite"
    var one = Session(
      clock: ManualClock(), random: SeededRandom(seed: 1), store: SQLiteStore.open(path: path), profile: "ada")
    var two = Session(
      clock: ManualClock(), random: SeededRandom(seed: 1), store: SQLiteStore.open(path: path), profile: "ada")
    _ = one.handle("set tips 5")
    _ = two.handle("set digits 4")
    _ = one.handle("drill 5 count 1")
    #expect(
      try SQLiteStore.open(path: path).settings(profile: "ada")
        == ["tips": "5", "digits": "4", "drill": "5 max 12 order count 1 ×"])
  }

  /// The session persists `set digits` and `set tips` through the store, and a new session
  /// on the same store starts with them.
  @Test func sessionSettingsPersist() throws {
    let folder = try Folder()
    let path = folder.path + "/reckon.sqlite"
    var first = Session(
      clock: ManualClock(), random: SeededRandom(seed: 1), store: SQLiteStore.open(path: path), profile: "ada")
    _ = first.handle("set digits 4")
    _ = first.handle("set tips 12 20")
    var second = Session(
      clock: ManualClock(), random: SeededRandom(seed: 1), store: SQLiteStore.open(path: path), profile: "ada")
    let warnings = second.restoreSettings()
    let third = second.handle("1/3")
    #expect(warnings.isEmpty)
    #expect(third.outputs == [.result("0.3333…")])
    #expect(second.state.settings.tipPresets == [12, 20])
    var other = Session(
      clock: ManualClock(), random: SeededRandom(seed: 1), store: SQLiteStore.open(path: path), profile: "bob")
    _ = other.restoreSettings()
    let unchanged = other.handle("1/3")
    #expect(unchanged.outputs == [.result("0.3333333333…")])
  }
}

/// The lazy store leaves no file behind until something is saved.
@Suite struct LazyStoreTests {
  @Test func readsCreateNothingAndTheFirstSaveCreatesTheDatabase() throws {
    let folder = try SQLiteStoreTests.Folder()
    let path = folder.path + "/sub/reckon.sqlite"
    let store = SQLiteStore(path: path)
    #expect(try store.settings(profile: "ada").isEmpty)
    #expect(!FileManager.default.fileExists(atPath: folder.path + "/sub"))
    try store.saveSetting("digits", value: "14", profile: "ada", at: 0)
    #expect(FileManager.default.fileExists(atPath: path))
    #expect(try SQLiteStore(path: path).settings(profile: "ada") == ["digits": "14"])
  }

  @Test func anUnwritablePlaceWarnsOnceAndItsWritesFail() throws {
    let folder = try SQLiteStoreTests.Folder()
    #expect(FileManager.default.createFile(atPath: folder.path + "/blocked", contents: Data()))
    let store = SQLiteStore(path: folder.path + "/blocked/reckon.sqlite")
    #expect(store.takeNotices().isEmpty)  // nothing opened yet
    store.prepareToSave()
    let warnings = store.takeNotices()
    #expect(warnings.count == 1)
    #expect(warnings.first?.contains("nothing can be saved for now") == true)
    store.prepareToSave()
    #expect(store.takeNotices().isEmpty)
    #expect(throws: StoreError("it is a file, not a folder", isKnown: true)) {
      try store.saveSetting("digits", value: "14", profile: "ada", at: 0)
    }
    #expect(store.takeNotices().isEmpty)
  }

  /// Start-up reads the settings without opening the store; it must agree with the store.
  @Test func theQuickReadAgreesWithTheStore() throws {
    let folder = try SQLiteStoreTests.Folder()
    let path = folder.path + "/reckon.sqlite"
    let store = SQLiteStore.open(path: path)
    try store.saveSetting("digits", value: "14", profile: "ada", at: 0)
    try store.saveSetting("tips", value: "12 15 20", profile: "ada", at: 0)
    try store.saveSetting("digits", value: "3", profile: "bob", at: 0)
    #expect(SQLiteStore.quickSettings(path: path, profile: "ada") == ["digits": "14", "tips": "12 15 20"])
    #expect(SQLiteStore.quickSettings(path: path, profile: "carol") == [:])
    #expect(try SQLiteStore(path: path).settings(profile: "ada") == store.settings(profile: "ada"))
  }

  /// With the database closed as a finished Reckon leaves it, start-up reads the settings
  /// without opening the store.
  @Test func startUpReadsTheSettingsWithoutOpeningTheStore() throws {
    let folder = try SQLiteStoreTests.Folder()
    let path = folder.path + "/reckon.sqlite"
    do {
      let store = SQLiteStore.open(path: path)
      try store.saveSetting("digits", value: "7", profile: "ada", at: 0)
    }
    #expect(SQLiteStore.quickSettings(path: path, profile: "ada") == ["digits": "7"])
    let lazy = SQLiteStore(path: path)
    #expect(try lazy.settings(profile: "ada") == ["digits": "7"])
    #expect(!lazy.isOpen)
  }

  @Test func theQuickReadGivesUpOnWhatItCannotRead() throws {
    let folder = try SQLiteStoreTests.Folder()
    let garbage = folder.path + "/garbage.sqlite"
    try SQLiteStoreTests.writePrivate(Data(repeating: 0x42, count: 4096), to: garbage)
    #expect(SQLiteStore.quickSettings(path: garbage, profile: "ada") == nil)
    #expect(SQLiteStore.quickSettings(path: folder.path + "/missing.sqlite", profile: "ada") == nil)
    #expect(!FileManager.default.fileExists(atPath: folder.path + "/missing.sqlite"))
    _ = try Database(folder.path + "/empty.sqlite")
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: folder.path + "/empty.sqlite")
    #expect(SQLiteStore.quickSettings(path: folder.path + "/empty.sqlite", profile: "ada") == nil)
  }

  /// The profile (the login name, which may need a password-database lookup) is worked out
  /// only when the store is used: not for calculations with no database yet, once when a
  /// setting is saved, and then the next session reads that profile's settings.
  @Test func theProfileIsWorkedOutOnlyWhenTheStoreIsUsed() throws {
    let folder = try SQLiteStoreTests.Folder()
    let path = folder.path + "/reckon.sqlite"
    let lookups = Mutex(0)
    let profile: @Sendable () -> String = {
      lookups.withLock { $0 += 1 }
      return "ada"
    }
    var session = Session(
      clock: ManualClock(), random: SeededRandom(seed: 1), store: SQLiteStore(path: path), lazyProfile: profile)
    #expect(session.restoreSettings().isEmpty)
    #expect(session.handle("1/3").outputs == [.result("0.3333333333…")])
    #expect(lookups.withLock { $0 } == 0)
    #expect(session.handle("set digits 5").outputs == [.note("digits: 5")])
    #expect(session.handle("1/3").outputs == [.result("0.33333…")])
    #expect(lookups.withLock { $0 } == 1)
    var next = Session(
      clock: ManualClock(), random: SeededRandom(seed: 1), store: SQLiteStore(path: path), lazyProfile: profile)
    #expect(next.restoreSettings().isEmpty)
    #expect(lookups.withLock { $0 } == 2)
    #expect(next.handle("1/3").outputs == [.result("0.33333…")])
  }

  /// A script's session reads the settings when a line first needs them: `2+2` and any integer
  /// of up to three digits print the same whatever they say, so the database is not opened (nor
  /// the profile worked out); a terminating decimal (cut to the digits, written in the format)
  /// and a longer integer (grouped by the separators setting) read the saved settings.
  @Test func settingsAreReadWhenALineFirstNeedsThem() throws {
    let folder = try SQLiteStoreTests.Folder()
    let path = folder.path + "/reckon.sqlite"
    var first = Session(
      clock: ManualClock(), random: SeededRandom(seed: 1), store: SQLiteStore(path: path), profile: "ada")
    #expect(first.handle("set digits 2").outputs == [.note("digits: 2")])
    #expect(first.handle("set separators on").outputs == [.note("separators: on")])
    let lookups = Mutex(0)
    let profile: @Sendable () -> String = {
      lookups.withLock { $0 += 1 }
      return "ada"
    }
    func script() -> (Session, SQLiteStore) {
      let store = SQLiteStore(path: path)
      return (Session(clock: ManualClock(), random: SeededRandom(seed: 1), store: store, lazyProfile: profile), store)
    }
    var (session, store) = script()
    #expect(session.handle("2+2").outputs == [.result("4")])
    #expect(session.handle("x = 2^70 / 2^61 - 1000").outputs == [.result("-488")])
    #expect(session.handle("-999").outputs == [.result("-999")])
    #expect(session.handle("mr").outputs == [.note("memory is empty")])
    #expect(lookups.withLock { $0 } == 0)
    #expect(!store.isOpen)
    #expect(session.handle("1/8").outputs == [.result("0.12…")])
    #expect(lookups.withLock { $0 } == 1)
    #expect(session.handle("sqrt(2)").outputs == [.result("≈ 1.4")])
    #expect(session.handle("2^70 / 1024").outputs == [.result("1,152,921,504,606,846,976")])
    #expect(lookups.withLock { $0 } == 1)
    // A longer integer reads them too.
    (session, store) = script()
    #expect(session.handle("1000").outputs == [.result("1,000")])
    #expect(lookups.withLock { $0 } == 2)
  }

  /// A temporary folder holding a `reckon.sqlite` of 8 KiB of garbage, and that file's path.
  static func damagedDatabase() throws -> (SQLiteStoreTests.Folder, String) {
    let folder = try SQLiteStoreTests.Folder()
    let path = folder.path + "/reckon.sqlite"
    try SQLiteStoreTests.writePrivate(Data(repeating: 0x42, count: 8192), to: path)
    return (folder, path)
  }

  /// What reading the settings has to say comes with the reply of the line that needed them,
  /// before its result; a line that needs nothing from the database leaves a damaged one as it is.
  @Test func aDamagedDatabaseIsFoundByTheFirstLineThatNeedsIt() throws {
    let (folder, path) = try Self.damagedDatabase()
    var session = Session(
      clock: ManualClock(), random: SeededRandom(seed: 1), store: SQLiteStore(path: path), profile: "ada")
    #expect(session.handle("6*7").outputs == [.result("42")])
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["reckon.sqlite"])
    let reply = session.handle("2/3")
    #expect(reply.outputs.count == 2)
    #expect("\(reply.outputs.first!)".contains("was damaged"))
    #expect(reply.outputs.last == .result("0.6666666666…"))
    #expect(session.handle("2/3").outputs == [.result("0.6666666666…")])
  }

  /// A damaged database found at start-up is moved aside, and the warning reaches the user
  /// through the settings read.
  @Test func aDamagedDatabaseAtStartUpIsMovedAsideWithAWarning() throws {
    let (folder, path) = try Self.damagedDatabase()
    var session = Session(
      clock: ManualClock(), random: SeededRandom(seed: 1), store: SQLiteStore(path: path), profile: "ada")
    let warnings = session.restoreSettings()
    #expect(warnings.count == 1)
    #expect("\(warnings)".contains("was damaged"))
    let aside = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".corrupt-") }
    #expect(aside.count == 1)
    let reply = session.handle("set digits 5")
    #expect(reply.outputs == [.note("digits: 5")])
    #expect(SQLiteStore.quickSettings(path: path, profile: "ada")?["digits"] == "5")
  }

  /// The tests' full disk: every write port fails with the fault given, reads still work, and
  /// writes go through again once it is cleared.
  @Test func aWriteFaultFailsEveryWriteUntilCleared() throws {
    let store = SQLiteStore.inMemory()
    try store.saveSetting("digits", value: "12", profile: "ada", at: 0)
    let full = StoreError("the disk is full")
    store.failWrites(with: full)
    let answer = AnswerRecord(
      profile: "ada", mode: "drill", item: "2×3", given: "6", correct: true, milliseconds: 900, answeredAt: 1,
      day: Day(number: 1))
    let result = GameResult(
      profile: "ada", game: "g", startedAt: 1, day: Day(number: 1), finished: true, score: 1, data: "")
    let daily = DailyRecord(
      profile: "ada", day: Day(number: 1), difficulty: "easy", item: "q", elapsedMilliseconds: 0, updatedAt: 1)
    let writes: [(String, () throws(StoreError) -> Void)] = [
      ("saveSetting", { () throws(StoreError) in try store.saveSetting("digits", value: "5", profile: "ada", at: 1) }),
      ("addProfile", { () throws(StoreError) in try store.addProfile("bob", at: 1) }),
      ("Answers.Record", { () throws(StoreError) in _ = try store.write(Answers.Record(answer, learn: nil)) }),
      (
        "Answers.SetBack",
        { () throws(StoreError) in
          try store.write(Answers.SetBack(item: "2×3", profile: "ada", mode: "drill", to: FactState(box: 1, dueAt: 0)))
        }
      ),
      (
        "DailyChallenges.Save",
        { () throws(StoreError) in _ = try store.write(DailyChallenges.Save(daily, answer: nil)) }
      ),
      ("GameResults.Save", { () throws(StoreError) in try store.write(GameResults.Save(result)) }),
      ("GameResults.Add", { () throws(StoreError) in try store.write(GameResults.Add(result)) }),
    ]
    for (name, write) in writes {
      #expect(throws: full, "\(name)") { try write() }
    }
    #expect(try store.settings(profile: "ada") == ["digits": "12"])
    store.failWrites(with: nil)
    for (name, write) in writes {
      #expect(throws: Never.self, "\(name)") { try write() }
    }
    #expect(try store.settings(profile: "ada") == ["digits": "5"])
  }
}
