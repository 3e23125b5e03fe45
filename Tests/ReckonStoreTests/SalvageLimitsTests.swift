import Foundation
import Glibc
import SQLite
import Synchronization
import Testing

@testable import ReckonSession
@testable import ReckonStore

/// Set by the test's SIGINT handler, as the prompt's sets `LineEditor.interruptRequested`.
let interruptSeen = Atomic<Bool>(false)

/// What bounds a salvage and what it leaves: Ctrl-C, the time budget, another Reckon
/// writing meanwhile, and what a salvage that was killed left behind.
@Suite(.serialized) struct SalvageLimitsTests {
  typealias Folder = SQLiteStoreTests.Folder

  func exists(_ folder: Folder, _ name: String) -> Bool { access(folder.path + "/" + name, F_OK) == 0 }

  /// The files of a folder, by name, with their bytes (the -shm, SQLite's shared memory, aside).
  static func files(in folder: String) throws -> [String: Data] {
    var files: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: folder) where !name.hasSuffix("-shm") {
      files[name] = FileManager.default.contents(atPath: folder + "/" + name)
    }
    return files
  }

  /// A SIGINT sent before the salvage has copied anything (by its own check, the third time it
  /// asks: while it reads the pages) and caught as the prompt catches it: the salvage stops,
  /// the damaged file and everything beside it are as they were, and the read says so; the
  /// next read salvages it.
  @Test func aSIGINTBeforeAnythingIsCopiedLeavesTheDamagedFileAsItWas() throws {
    let (folder, path, page, lost) = try SalvageTests.database()
    _ = try SQLiteStore.open(path: path).settings(profile: "ada")  // (its -wal and -shm made)
    try SalvageTests.damage(path, page: page)
    let before = try Self.files(in: folder.path)
    let asked = Counter()
    let policy = SalvagePolicy(interrupted: Self.sigint(at: 3, counting: asked))
    defer { Self.restoreSIGINT() }
    let store = SQLiteStore(path: path, salvage: policy)
    let stopped = #expect(throws: StoreError.self) { _ = try store.read(Answers.Totals(profile: "ada", mode: "drill")) }
    #expect(asked.value.load(ordering: .relaxed) >= 3)
    #expect(
      stopped?.message
        == "\(path) is damaged (SQLite's check of its pages found damage: Page \(page): btreeInitPage() returns error "
        + "code 11), and its salvage was stopped (Ctrl-C): nothing was changed, and Reckon tries again the next time "
        + "it needs the file")
    #expect(try Self.files(in: folder.path) == before)
    // The next use tries again, and salvages.
    interruptSeen.store(false, ordering: .sequentiallyConsistent)
    asked.value.store(-1_000_000_000, ordering: .relaxed)
    let totals = try store.read(Answers.Totals(profile: "ada", mode: "drill"))
    #expect(totals.values.reduce(0) { $0 + $1.answered } == SalvageTests.answers - lost)
    #expect(store.takeNotices().count == 1)
  }

  /// A SIGINT sent in the middle of the copy (by the salvage's own check, the time it asks at
  /// which the answers are half copied, found by bisection): what was copied is kept and the
  /// fresh file used, the damaged file is aside, and the notice says that Ctrl-C stopped it
  /// and how to read the rest; `salvage FILE` then brings every answer the damaged file still
  /// holds.
  @Test func aSIGINTMidSalvageKeepsWhatWasCopied() throws {
    // How many times a whole salvage asks.
    let counted = Counter()
    do {
      let (folder, path, _, _) = try SalvageTests.damagedDatabase()
      defer { _ = folder }
      let outcome = SQLiteStore.salvage(
        path, policy: SalvagePolicy(interrupted: { counted.value.add(1, ordering: .relaxed).newValue < 0 }))
      guard case .salvaged = outcome else {
        Issue.record("not salvaged: \(outcome)")
        return
      }
    }
    defer { Self.restoreSIGINT() }
    var (low, high) = (1, counted.value.load(ordering: .relaxed))
    var found: (SalvageReport, path: String, folder: Folder, lost: Int)?
    for _ in 0..<16 where found == nil && high - low > 1 {
      let at = (low + high) / 2
      let (folder, path, _, lost) = try SalvageTests.damagedDatabase()
      let outcome = SQLiteStore.salvage(
        path, policy: SalvagePolicy(interrupted: Self.sigint(at: at, counting: Counter())))
      guard case .salvaged(let report) = outcome else {
        low = at  // (stopped before anything was copied: nothing changed)
        continue
      }
      let answers = report.copy.tables.first { $0.name == "answer" }?.kept ?? 0
      if answers >= SalvageTests.answers - lost {
        high = at
      } else if answers == 0 {
        low = at
      } else {
        found = (report, path, folder, lost)
      }
    }
    guard let (partial, path, folder, lost) = found else {
      Issue.record("no SIGINT stopped the salvage in the middle of the answers")
      return
    }
    defer { _ = folder }
    #expect(partial.copy.stoppedEarly == .interrupted)
    let answers = partial.copy.tables.first { $0.name == "answer" }?.kept ?? 0
    #expect(try Database(path, flags: .readOnly).value("PRAGMA integrity_check") as String? == "ok")
    let notice = partial.notice(path: path, damage: "database disk image is malformed")
    #expect(
      notice.hasPrefix(
        "\(path) was damaged (database disk image is malformed). Reckon was copying what could be read into a fresh "
          + "file when Ctrl-C stopped it; it uses what was copied from now on: "), "\(notice)")
    #expect(
      notice.hasSuffix(
        "The rest may still be in the damaged file, which was moved aside: salvage \(partial.aside) adds what it "
          + "holds"), "\(notice)")
    // The rest, from the file set aside.
    interruptSeen.store(false, ordering: .sequentiallyConsistent)
    let store = SQLiteStore.open(path: path)
    let merged = try store.salvage(file: partial.aside)
    #expect(merged.added.first { $0.table == "answer" }?.count == SalvageTests.answers - lost - answers, "\(merged)")
    let totals = try store.read(Answers.Totals(profile: "ada", mode: "drill"))
    #expect(totals.values.reduce(0) { $0 + $1.answered } == SalvageTests.answers - lost)
    // Read again, it adds nothing.
    #expect(try store.salvage(file: partial.aside).added.isEmpty)
  }

  /// A check that sends this process a SIGINT the `at`th time it is asked (counting in
  /// `asked`), caught as the prompt catches it (`interruptSeen`), and then says whether one
  /// was seen.
  static func sigint(at: Int, counting asked: Counter) -> @Sendable () -> Bool {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { _ in interruptSeen.store(true, ordering: .sequentiallyConsistent) }
    sigemptyset(&action.sa_mask)
    sigaction(SIGINT, &action, nil)
    interruptSeen.store(false, ordering: .sequentiallyConsistent)
    return {
      if asked.value.add(1, ordering: .relaxed).newValue == at {
        kill(getpid(), SIGINT)
        for _ in 0..<1000 where !interruptSeen.load(ordering: .sequentiallyConsistent) { usleep(1000) }
      }
      return interruptSeen.load(ordering: .sequentiallyConsistent)
    }
  }

  /// A count that closures share.
  final class Counter: Sendable {
    let value = Atomic<Int>(0)
  }

  static func restoreSIGINT() {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = SIG_DFL
    sigemptyset(&action.sa_mask)
    sigaction(SIGINT, &action, nil)
  }

  /// Ctrl-C while a file whose header SQLite cannot read is salvaged at opening: the read
  /// fails with the reason (rather than finding nothing in a stand-in), every file is as it
  /// was, a save is kept for later, and the next read opens the file again and salvages it.
  @Test func aSalvageStoppedAtOpeningFailsTheReadAndTheNextOneSalvages() throws {
    let (folder, path, _, _) = try SalvageTests.damagedDatabase()
    do {
      // The header garbled too: SQLite cannot open it at all.
      let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
      try handle.write(contentsOf: Data(repeating: 0x3C, count: 100))
      try handle.close()
    }
    let before = try Self.files(in: folder.path)
    let stop = Atomic<Bool>(true)
    let store = SQLiteStore(path: path, salvage: SalvagePolicy(interrupted: { stop.load(ordering: .relaxed) }))
    let stopped = #expect(throws: StoreError.self) { _ = try store.settings(profile: "ada") }
    #expect(
      stopped?.message
        == "\(path) is damaged (file is not a database), and its salvage was stopped (Ctrl-C): nothing was "
        + "changed, and Reckon tries again the next time it needs the file")
    #expect(store.takeNotices().isEmpty, "said by the read, once")
    let write = #expect(throws: StoreError.self) { try store.saveSetting("tips", value: "12", profile: "ada", at: 0) }
    #expect(write?.isKnown == false)
    #expect(try Self.files(in: folder.path) == before)
    stop.store(false, ordering: .relaxed)
    #expect(try store.settings(profile: "ada") == ["digits": "14"])
    #expect(store.takeNotices().first?.contains("Reckon copied what could be read into a fresh file") == true)
  }

  /// Its work spent part-way: what was copied is kept (the damaged file is aside, as always)
  /// and the notice says the salvage stopped before the end. Work, not time: the same budget
  /// stops it at the same row on any machine, busy or not.
  @Test func outOfWorkKeepsWhatWasCopied() throws {
    let (first, firstPath, _, lost) = try SalvageTests.damagedDatabase()
    defer { _ = first }
    let outcome = SQLiteStore.salvage(firstPath, policy: SalvagePolicy())
    guard case .salvaged(let full) = outcome else {
      Issue.record("not salvaged: \(outcome)")
      return
    }
    #expect(full.copy.stoppedEarly == nil)
    #expect(full.copy.tables.first { $0.name == "answer" }?.kept == SalvageTests.answers - lost)
    // Each page read once by the census and once by its tree's walk, and a few rows more:
    // well within the budget.
    #expect(full.copy.work < SalvagePolicy().baseWork / 4, "\(full.copy.work) units for \(full.copy.pages) pages")
    // A budget that runs out in the middle of the answers, found by bisection, each try on a
    // fresh copy of the damaged database; then the same budget again: the same rows.
    var (low, high) = (0, full.copy.work)
    var found: Int?
    for _ in 0..<24 where found == nil && high - low > 1 {
      let budget = (low + high) / 2
      let (folder, path, _, _) = try SalvageTests.damagedDatabase()
      defer { _ = folder }
      guard
        case .salvaged(let report) = SQLiteStore.salvage(path, policy: SalvagePolicy(baseWork: budget, workPerPage: 0))
      else {
        low = budget  // (out of work before anything was copied: nothing changed)
        continue
      }
      let answers = report.copy.tables.first { $0.name == "answer" }?.kept ?? 0
      if answers == 0 {
        low = budget
      } else if answers >= SalvageTests.answers - lost {
        high = budget
      } else {
        found = budget
      }
    }
    let budget = try #require(found, "no budget stopped the salvage in the middle of the answers")
    var results: [Int] = []
    for _ in 0..<2 {
      let (folder, path, _, _) = try SalvageTests.damagedDatabase()
      defer { _ = folder }
      let damaged = FileManager.default.contents(atPath: path)
      let policy = SalvagePolicy(baseWork: budget, workPerPage: 0)
      guard case .salvaged(let partial) = SQLiteStore.salvage(path, policy: policy) else {
        Issue.record("not salvaged")
        return
      }
      #expect(partial.copy.stoppedEarly == .outOfWork)
      let answers = partial.copy.tables.first { $0.name == "answer" }?.kept ?? 0
      results.append(answers)
      #expect(answers < SalvageTests.answers - lost)
      #expect(try Database(path, flags: .readOnly).value("SELECT count(*) FROM answer") as Int? == answers)
      #expect(try Database(path, flags: .readOnly).value("PRAGMA integrity_check") as String? == "ok")
      #expect(FileManager.default.contents(atPath: partial.aside) == damaged)
      let notice = partial.notice(path: path, damage: "database disk image is malformed")
      #expect(
        notice.hasPrefix(
          "\(path) was damaged (database disk image is malformed). Reckon copied what it could read into a fresh "
            + "file, which it uses from now on, but the damage would take too long to read whole, and it stopped "
            + "before the end: "), "\(notice)")
      #expect(
        notice.hasSuffix(
          "The rest may still be in the damaged file, which was moved aside: salvage \(partial.aside) adds what it holds"
        ))
    }
    #expect(results.count == 2 && results[0] == results[1])
  }

  /// No work at all: nothing changes.
  @Test func noWorkAtAllChangesNothing() throws {
    let (folder, path, _, _) = try SalvageTests.damagedDatabase()
    let before = try Self.files(in: folder.path)
    let outcome = SQLiteStore.salvage(path, policy: SalvagePolicy(baseWork: 0, workPerPage: 0))
    guard case .failed(let why) = outcome else {
      Issue.record("\(outcome)")
      return
    }
    #expect(why == "it could not be read within the salvage's work")
    #expect(try Self.files(in: folder.path) == before)
  }

  /// Another Reckon writes while the salvage reads, as often as it can (each time the
  /// salvage checks its limits): the first copy does not hold the write lock, so the writes
  /// go through at once; seeing them (PRAGMA data_version), the salvage copies again holding
  /// the lock, when the writes find it held. Every write that went through is in the fresh
  /// file.
  @Test func writesWhileTheSalvageReadsAreKept() throws {
    let (folder, path, _, _) = try SalvageTests.damagedDatabase()
    defer { _ = folder }
    let outcomes = Mutex<(written: [String], refused: Int, failed: [String])>(([], 0, []))
    let other = try Database(path)
    other.setBusyTimeout(milliseconds: 0)  // the lock must be free now, not in a while
    let writer = Mutex<Database?>(other)
    let policy = SalvagePolicy(interrupted: {
      writer.withLock { db in
        guard let db else { return false }
        let key = "key \(outcomes.withLock { $0.written.count + $0.refused })"
        do throws(SQLiteError) {
          try db.transaction(.immediate) { () throws(SQLiteError) in
            try db.run("INSERT INTO setting (profile, key, value) VALUES ('bob', ?, 'x')", key)
          }
          outcomes.withLock { $0.written.append(key) }
        } catch {
          outcomes.withLock {
            if error.is(.busy) { $0.refused += 1 } else { $0.failed.append("\(error)") }
          }
        }
        return false
      }
    })
    let outcome = SQLiteStore.salvage(path, policy: policy)
    writer.withLock { $0 = nil }
    guard case .salvaged = outcome else {
      Issue.record("not salvaged: \(outcome)")
      return
    }
    let (written, refused, failed) = outcomes.withLock { $0 }
    #expect(failed.isEmpty, "\(failed)")
    #expect(written.count >= 1, "the first copy holds no lock")
    #expect(refused >= 1, "the second copy holds the lock")
    let saved = try SQLiteStore.open(path: path).settings(profile: "bob")
    #expect(Set(saved.keys) == Set(written))
  }

  /// A salvage killed while it moved the files left the damaged file with a second name, its
  /// -wal moved to that name, and its fresh file: the next start puts the -wal back, removes
  /// the second name and the fresh file, and the database opens with every row (those in the
  /// -wal too). A salvage still running (its file locked) is left alone.
  @Test func whatAKilledSalvageLeftIsUndoneAtTheNextStart() throws {
    let folder = try Folder()
    let path = folder.path + "/reckon.sqlite"
    try SQLiteStoreTests.writePrivate(Data(), to: path)
    do {
      let db = try Database(path)
      try db.enableWAL()
      try db.keepWALFilesOnClose()
      try db.skipCheckpointOnClose()
      try Schema.migrator.migrate(db)
      try db.run("INSERT INTO profile (name, createdAt) VALUES ('ada', 1)")
      try db.run("INSERT INTO setting (profile, key, value) VALUES ('ada', 'digits', '12')")
    }
    var info = stat()
    #expect(stat(path + "-wal", &info) == 0 && info.st_size > 0, "the rows are in the -wal")
    let wal = FileManager.default.contents(atPath: path + "-wal")
    // As a salvage killed after moving the -wal aside, before the fresh file took the name.
    let aside = path + ".corrupt-20270101-000000"
    #expect(link(path, aside) == 0)
    #expect(rename(path + "-wal", aside + "-wal") == 0)
    try Data("fresh".utf8).write(to: URL(fileURLWithPath: path + ".salvage-999999"))
    try Data().write(to: URL(fileURLWithPath: path + ".salvage-999999-journal"))
    // And one of a salvage still running.
    let running = path + ".salvage-888888"
    let fd = open(running, O_RDWR | O_CREAT, 0o600)
    defer { close(fd) }
    #expect(flock(fd, LOCK_EX | LOCK_NB) == 0)

    let store = SQLiteStore.open(path: path)
    #expect(store.warnings.isEmpty)
    #expect(try store.settings(profile: "ada") == ["digits": "12"])
    #expect(!exists(folder, "reckon.sqlite.corrupt-20270101-000000"))
    #expect(!exists(folder, "reckon.sqlite.corrupt-20270101-000000-wal"))
    #expect(!exists(folder, "reckon.sqlite.salvage-999999"))
    #expect(!exists(folder, "reckon.sqlite.salvage-999999-journal"))
    #expect(exists(folder, "reckon.sqlite.salvage-888888"))
    #expect(FileManager.default.contents(atPath: path + "-wal").map { $0.count >= (wal?.count ?? 0) } == true)
  }
}
