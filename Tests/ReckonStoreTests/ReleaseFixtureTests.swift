import Foundation
import ReckonSession
import SQLite
import Testing

@testable import ReckonStore

/// The database this release writes (Fixtures/release-2026-11-27.sqlite, made by
/// Fixtures/make-grdb-fixture through the release binary of 2026-11-27, schema version 6):
/// every later store must open it with every row as it was, read it, and go on saving. Its
/// rows are read with SQLite before the store opens it and compared after, so that a
/// migration that loses or changes a row fails here.
@Suite struct ReleaseFixtureTests {
  static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/release-2026-11-27.sqlite").path

  /// A copy of the fixture as `reckon.sqlite` (mode 0600) in a temporary folder.
  static func copy() throws -> (SQLiteStoreTests.Folder, String) { try GRDBFixtureTests.copy(of: fixture) }

  static let tables = ["profile", "setting", "answer", "factState", "daily", "gameResult"]

  /// Every table's rows as SQLite reads them, read-only.
  static func dump(_ path: String) throws -> [String: String] {
    var all: [String: String] = [:]
    for table in tables { all[table] = try GRDBFixtureTests.rows(table, in: path) }
    return all
  }

  /// (Read from a copy: opening the fixture itself would leave -shm and -wal files by it.)
  @Test func theFixtureHoldsEveryKindOfRow() throws {
    let (folder, path) = try Self.copy()
    defer { _ = folder }
    let rows = try Self.dump(path)
    for table in Self.tables {
      #expect(rows[table].map { !$0.isEmpty } == true, "no rows in \(table)")
    }
    #expect(try Database(path, flags: .readOnly).value("PRAGMA user_version", as: Int.self) == 6)
  }

  @Test func theStoreOpensItWithEveryRowAsItWas() throws {
    let (folder, path) = try Self.copy()
    defer { _ = folder }
    let before = try Self.dump(path)
    let store = SQLiteStore.open(path: path)
    #expect(store.warnings.isEmpty)
    #expect(try Self.dump(path) == before)
    // What the store reads is what the rows say.
    for name in ["ada", "bob", "zoë"] {
      var saved = SavedSettings()
      for line in before["setting", default: ""].split(separator: "\n") {
        let fields = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        if fields[0] == name { saved[fields[1]] = fields[2] }
      }
      #expect(try store.settings(profile: name) == saved, "\(name)")
      #expect(try SQLiteStore(path: path).settings(profile: name) == saved, "the start-up read, \(name)")
    }
    let answers = before["answer", default: ""].split(separator: "\n")
    #expect(try store.profiles().map(\.name) == ["ada", "bob", "zoë"])
    #expect(try store.profiles().map(\.answers).reduce(0, +) == answers.count)
    let games = before["gameResult", default: ""].split(separator: "\n")
    let stored = try ["anagram", "personality"].flatMap { game in
      try ["ada", "bob", "zoë"].flatMap { try store.read(GameResults.All(profile: $0, game: game)) }
    }
    #expect(stored.count == games.count)
  }

  @Test func itGoesOnSaving() throws {
    let (folder, path) = try Self.copy()
    defer { _ = folder }
    let before = try Self.dump(path)
    do {
      let store = SQLiteStore.open(path: path)
      try store.saveSetting("digits", value: "20", profile: "zoë", at: 1_800_000_000_000)
      let at: Int64 = 1_801_000_000_000
      let answer = AnswerRecord(
        profile: "bob", mode: "drill", item: "2+5", given: "7", correct: true, milliseconds: 900, answeredAt: at,
        day: Day(milliseconds: at, utcOffsetSeconds: 0))
      _ = try store.record(answer, learning: Leitner())
    }
    let store = SQLiteStore.open(path: path)
    #expect(try store.settings(profile: "zoë") == ["digits": "20"])
    let after = try Self.dump(path)
    #expect(after["answer", default: ""].hasPrefix(before["answer", default: ""]))
    #expect(
      after["answer", default: ""].split(separator: "\n").count == before["answer", default: ""].split(separator: "\n")
        .count + 1)
  }
}
