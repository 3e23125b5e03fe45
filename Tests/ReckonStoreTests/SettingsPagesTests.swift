import Foundation
import ReckonSession
import SQLite
import Testing

@testable import ReckonStore

/// The start-up read of the settings from the file's pages (no SQLite) must give what SQLite
/// reads, or nothing (then SQLite reads them).
@Suite struct SettingsPagesTests {
  typealias Folder = SQLiteStoreTests.Folder

  /// Every profile's settings as SQLite reads them, from the closed file.
  static func sqliteSettings(_ path: String) throws -> [String: SavedSettings] {
    let db = try Database(path, flags: .readOnly)
    let rows = try db.all("SELECT profile, key, value FROM setting") { (row) throws(SQLiteError) in
      (try row[0] as String, try row[1] as String, try row[2] as String)
    }
    var all: [String: SavedSettings] = [:]
    for (profile, key, value) in rows { all[profile, default: [:]][key] = value }
    return all
  }

  /// Many profiles, keys and values of every length a page keeps, written, overwritten and
  /// deleted until the table spans interior pages and the file has free pages.
  @Test func givesWhatSQLiteReadsFromATreeOfManyPages() throws {
    let folder = try Folder()
    let path = folder.path + "/reckon.sqlite"
    var random = SystemRandomNumberGenerator()
    let profiles = (0..<40).map { "p\($0)" } + ["ada", "Zoë", "名前"]
    do {
      let store = SQLiteStore.open(path: path)
      for round in 0..<3 {
        for (i, profile) in profiles.enumerated() {
          for k in 0..<(5 + i % 20) {
            let length = [0, 1, 12, 200, 500, 900][Int.random(in: 0..<6, using: &random)]
            let value = String((0..<length).map { _ in "aé€😀 ;:0".randomElement(using: &random)! })
            try store.saveSetting("key\(k)-\(round % 2)", value: value, profile: profile, at: 0)
          }
        }
        try store.withDatabase { (db) throws(SQLiteError) in
          try db.run("DELETE FROM setting WHERE length(value) > 600 AND key LIKE '%1'")
        }
      }
    }
    let expected = try Self.sqliteSettings(path)
    let pages = try Database(path, flags: .readOnly).value("PRAGMA page_count", as: Int.self) ?? 0
    #expect(pages > 20, "\(pages) pages: the table should span interior pages")
    for profile in profiles + ["nobody"] {
      let read = try #require(SQLiteStore.settingsFromPages(path: path, profile: profile), "\(profile)")
      #expect(read == expected[profile, default: [:]], "\(profile)")
      #expect(try SQLiteStore(path: path).settings(profile: profile) == expected[profile, default: [:]])
    }
  }

  /// A value too long for its page (continued on overflow pages) is left to SQLite.
  @Test func aValueOnOverflowPagesIsLeftToSQLite() throws {
    let folder = try Folder()
    let path = folder.path + "/reckon.sqlite"
    let long = String(repeating: "EUR 1.08 2026-11-20;", count: 600)
    do {
      let store = SQLiteStore.open(path: path)
      try store.saveSetting("rates", value: long, profile: "ada", at: 0)
      try store.saveSetting("digits", value: "14", profile: "ada", at: 0)
    }
    #expect(SQLiteStore.settingsFromPages(path: path, profile: "ada") == nil)
    #expect(try SQLiteStore(path: path).settings(profile: "ada") == ["rates": long, "digits": "14"])
  }

  /// A settings table not as Reckon creates it (a column more) is left to SQLite.
  @Test func anotherShapeOfTableIsLeftToSQLite() throws {
    let folder = try Folder()
    let path = folder.path + "/reckon.sqlite"
    do {
      let store = SQLiteStore.open(path: path)
      try store.saveSetting("digits", value: "14", profile: "ada", at: 0)
      try store.withDatabase { (db) throws(SQLiteError) in
        try db.run("ALTER TABLE setting ADD COLUMN note TEXT")
      }
    }
    #expect(SQLiteStore.settingsFromPages(path: path, profile: "ada") == nil)
    #expect(try SQLiteStore(path: path).settings(profile: "ada") == ["digits": "14"])
  }

  /// Damage anywhere in the file gives what SQLite reads from it, or nothing, never another
  /// answer and never a crash: each page in turn overwritten with bytes that start as a table
  /// page does. (Where SQLite finds the file damaged, only the settings as saved may come back.)
  @Test func damageGivesNothingOrWhatSQLiteReads() throws {
    let folder = try Folder()
    let path = folder.path + "/reckon.sqlite"
    do {
      let store = SQLiteStore.open(path: path)
      for n in 0..<300 {
        try store.saveSetting("k\(n)", value: String(repeating: "v", count: n), profile: "ada", at: 0)
      }
    }
    // Everything into the file itself: the store's background checkpoint may still have had
    // the file open when the store closed, and then closing checkpoints nothing.
    do {
      let db = try Database(path)
      db.setBusyTimeout(milliseconds: 5000)
      for _ in 0..<500 {
        // (A checkpoint that meets another running says so in its first column: try again.)
        let busy = try db.first("PRAGMA wal_checkpoint(TRUNCATE)") { (row) throws(SQLiteError) in try row[0] as Int }
        if busy == 0 { break }
        usleep(10_000)
      }
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)).count > 4096 * 8)
    let saved = try Self.sqliteSettings(path)["ada", default: [:]]
    let original = try Data(contentsOf: URL(fileURLWithPath: path))
    let pageSize = 4096
    var (answered, wrong) = (0, [String]())
    for page in 0..<(original.count / pageSize) {
      for fill: UInt8 in [0x00, 0x0D, 0x05] {
        var damaged = original
        let start = page * pageSize + (page == 0 ? 100 : 0)
        for i in start..<((page + 1) * pageSize) { damaged[i] = i == start ? fill : UInt8(truncatingIfNeeded: i &* 31) }
        let copy = folder.path + "/damaged-\(page)-\(fill).sqlite"
        try SQLiteStoreTests.writePrivate(damaged, to: copy)
        guard let read = SQLiteStore.settingsFromPages(path: copy, profile: "ada") else { continue }
        answered += 1
        let sqlite = (try? Self.sqliteSettings(copy)).map { $0["ada", default: [:]] }
        if read != (sqlite ?? saved) { wrong.append("page \(page + 1) from \(fill): \(read.count) settings") }
      }
    }
    #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    #expect(answered > 0, "damage to pages that hold no settings leaves them readable")
  }
}
