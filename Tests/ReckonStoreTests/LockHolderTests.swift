import Foundation
import SQLite
import Testing

@testable import ReckonSession
@testable import ReckonStore

/// Another process holding the database's write lock (a long transaction, a stuck Reckon):
/// the drill goes on at once, keeping the answers, and saves them when the lock is let go.
@Suite struct LockHolderTests {
  @Test func answersWaitForALockHeldElsewhereWithoutHoldingUpTheDrill() throws {
    let folder = try SQLiteStoreTests.Folder()
    let path = folder.path + "/reckon.sqlite"
    _ = SQLiteStore.open(path: path)
    let holder = try Database(path)
    try holder.execute("BEGIN IMMEDIATE")
    let store = SQLiteStore(path: path)
    var session = Session(clock: ManualClock(), random: SeededRandom(seed: 1), store: store, profile: "ada")
    _ = session.handle("drill 6 count 4")
    let started = ContinuousClock.now
    let first = session.handle("12").outputs
    let second = session.handle("18").outputs
    // Not the 10 s of a busy timeout each (half a second for the first, none after).
    #expect(ContinuousClock.now - started < .seconds(5))
    #expect(
      first.first
        == .warning(
          "progress is not being saved: the database is busy in another Reckon (Reckon keeps it and tries again with each save)"
        ))
    #expect(!second.contains { if case .warning = $0 { true } else { false } })
    #expect(session.state.unsaved.count >= 2)
    try holder.execute("ROLLBACK")
    let third = session.handle("24").outputs
    #expect(third.first == .note("saving works again: 3 changes kept since saving failed are saved now"))
    #expect(session.state.unsaved.isEmpty)
    #expect(
      try SQLiteStore.open(path: path).read(Answers.Totals(profile: "ada", mode: "drill")).mapValues(\.answered) == [
        "6×2": 1, "6×3": 1, "6×4": 1,
      ])
  }

  /// At the end of a session the kept writes may wait for the lock (up to 10 s): a lock let go
  /// within that time loses nothing.
  @Test func theLastSaveWaitsForTheLock() throws {
    let folder = try SQLiteStoreTests.Folder()
    let path = folder.path + "/reckon.sqlite"
    _ = SQLiteStore.open(path: path)
    let holder = try Database(path)
    try holder.execute("BEGIN IMMEDIATE")
    let store = SQLiteStore(path: path)
    var session = Session(clock: ManualClock(), random: SeededRandom(seed: 1), store: store, profile: "ada")
    _ = session.handle("drill 6 count 4")
    _ = session.handle("12")
    #expect(!session.state.unsaved.isEmpty)
    final class Holder: @unchecked Sendable {
      let db: Database
      init(_ db: Database) { self.db = db }
    }
    let held = Holder(holder)
    let release = Thread {
      usleep(700_000)
      try? held.db.execute("ROLLBACK")
    }
    release.start()
    let end = session.finish().outputs
    #expect(end.contains(.note("saving works again: 2 changes kept since saving failed are saved now")), "\(end)")
    #expect(try SQLiteStore.open(path: path).read(Answers.Totals(profile: "ada", mode: "drill"))["6×2"]?.answered == 1)
  }

  /// Ctrl-D at a drill's prompt ends the drill, not the session: the saves after it still
  /// go on at once under a lock held elsewhere (not the 10 s wait of the session's end).
  @Test func endingAModeIsNotEndingTheSession() throws {
    let folder = try SQLiteStoreTests.Folder()
    let path = folder.path + "/reckon.sqlite"
    _ = SQLiteStore.open(path: path)
    let holder = try Database(path)
    try holder.execute("BEGIN IMMEDIATE")
    defer { try? holder.execute("ROLLBACK") }
    var session = Session(
      clock: ManualClock(), random: SeededRandom(seed: 1), store: SQLiteStore(path: path), profile: "ada")
    _ = session.handle("drill 6 count 4")
    _ = session.handle("12")
    _ = session.finish(endingSession: false)
    let started = ContinuousClock.now
    _ = session.handle("drill 7 count 4")
    _ = session.handle("14")
    _ = session.handle("21")
    #expect(ContinuousClock.now - started < .seconds(5))
  }
}
