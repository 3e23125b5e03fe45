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

  /// A SIGINT sent while the salvage reads (by its own check, the 20th time it asks, so that
  /// it lands mid-copy) and caught as the prompt catches it: the salvage stops, the damaged
  /// file and everything beside it are as they were, and the read says so; the next read
  /// salvages it.
  @Test func aSIGINTMidSalvageLeavesTheDamagedFileAsItWas() throws {
    let (folder, path, _, lost) = try SalvageTests.damagedDatabase()
    _ = try SQLiteStore.open(path: path).settings(profile: "ada")  // (its -wal and -shm made)
    let before = try Self.files(in: folder.path)
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { _ in interruptSeen.store(true, ordering: .sequentiallyConsistent) }
    sigemptyset(&action.sa_mask)
    var previous = sigaction()
    sigaction(SIGINT, &action, &previous)
    defer { sigaction(SIGINT, &previous, nil) }
    interruptSeen.store(false, ordering: .sequentiallyConsistent)
    let asked = Atomic<Int>(0)
    let policy = SalvagePolicy(interrupted: {
      if asked.add(1, ordering: .relaxed).newValue == 20 {
        kill(getpid(), SIGINT)
        for _ in 0..<1000 where !interruptSeen.load(ordering: .sequentiallyConsistent) { usleep(1000) }
      }
      return interruptSeen.load(ordering: .sequentiallyConsistent)
    })
    let store = SQLiteStore(path: path, salvage: policy)
    let stopped = #expect(throws: StoreError.self) { _ = try store.read(Answers.Totals(profile: "ada", mode: "drill")) }
    #expect(asked.load(ordering: .relaxed) >= 20)
    #expect(
      stopped?.message
        == "\(path) is damaged (database disk image is malformed), and its salvage was stopped (Ctrl-C): nothing was "
        + "changed, and Reckon tries again the next time it needs the file")
    #expect(try Self.files(in: folder.path) == before)
    // The next use tries again, and salvages.
    interruptSeen.store(false, ordering: .sequentiallyConsistent)
    let totals = try store.read(Answers.Totals(profile: "ada", mode: "drill"))
    #expect(totals.values.reduce(0) { $0 + $1.answered } == SalvageTests.answers - lost)
    #expect(store.takeNotices().count == 1)
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

  /// Out of time part-way: what was copied is kept (the damaged file is aside, as always)
  /// and the notice says the salvage stopped before the end. The clock is the test's: it
  /// moves a millisecond each time it is read.
  @Test func outOfTimeKeepsWhatWasCopied() throws {
    let ticks = Atomic<Int64>(0)
    let clock: @Sendable () -> Int64 = { ticks.add(1, ordering: .relaxed).newValue }
    // How many readings of the clock a whole salvage takes.
    var whole = SalvagePolicy(milliseconds: 1_000_000)
    whole.clock = clock
    let (first, firstPath, _, lost) = try SalvageTests.damagedDatabase()
    defer { _ = first }
    let outcome = SQLiteStore.salvage(firstPath, policy: whole)
    guard case .salvaged(let full) = outcome else {
      Issue.record("not salvaged: \(outcome)")
      return
    }
    #expect(!full.copy.ranOutOfTime)
    #expect(full.copy.tables.first { $0.name == "answer" }?.kept == SalvageTests.answers - lost)
    let needed = ticks.load(ordering: .relaxed)
    // A budget that runs out in the middle of the answers, found by bisection: each try a
    // fresh copy of the damaged database.
    var (low, high) = (Int64(0), needed)
    var found: (SalvageReport, path: String, damaged: Data?, folder: Folder)?
    for _ in 0..<16 where found == nil && high - low > 1 {
      let budget = (low + high) / 2
      let (folder, path, _, _) = try SalvageTests.damagedDatabase()
      let damaged = FileManager.default.contents(atPath: path)
      ticks.store(0, ordering: .relaxed)
      var policy = SalvagePolicy(milliseconds: budget)
      policy.clock = clock
      guard case .salvaged(let report) = SQLiteStore.salvage(path, policy: policy) else {
        low = budget  // (out of time before the first row: nothing changed)
        continue
      }
      let answers = report.copy.tables.first { $0.name == "answer" }?.kept ?? 0
      if answers == 0 {
        low = budget
      } else if answers >= SalvageTests.answers - lost {
        high = budget
      } else {
        found = (report, path, damaged, folder)
      }
    }
    guard let (partial, path, damaged, folder) = found else {
      Issue.record("no budget stopped the salvage in the middle of the answers")
      return
    }
    defer { _ = folder }
    #expect(partial.copy.ranOutOfTime)
    let answers = partial.copy.tables.first { $0.name == "answer" }?.kept ?? 0
    #expect(try Database(path, flags: .readOnly).value("SELECT count(*) FROM answer") as Int? == answers)
    #expect(try Database(path, flags: .readOnly).value("PRAGMA integrity_check") as String? == "ok")
    #expect(FileManager.default.contents(atPath: partial.aside) == damaged)
    let notice = partial.notice(path: path, damage: "database disk image is malformed")
    #expect(notice.hasPrefix("\(path) was damaged (database disk image is malformed). Reckon copied what it could "))
    #expect(notice.contains("and stopped there, before the end: \(answers.grouped) answers"))
    #expect(notice.hasSuffix("The damaged file, where the rest may still be, was moved to \(partial.aside)"))
  }

  /// Out of time before anything was copied: nothing changes.
  @Test func outOfTimeAtOnceChangesNothing() throws {
    let (folder, path, _, _) = try SalvageTests.damagedDatabase()
    let before = try Self.files(in: folder.path)
    let outcome = SQLiteStore.salvage(path, policy: SalvagePolicy(milliseconds: 0))
    guard case .failed(let why) = outcome else {
      Issue.record("\(outcome)")
      return
    }
    #expect(why == "it took more than 0 ms")
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
