import Foundation
import ReckonCore
import SQLite
import Testing

@testable import ReckonSession
@testable import ReckonStore

/// A database with a page that cannot be read (in the answers, here) is salvaged when the
/// store meets the damage: what can be read is copied into a fresh file, the damaged one is
/// kept aside, and the user is told, once.
@Suite struct SalvageTests {
  static let answers = 3000

  /// A database of `answers` drill answers, settings and a game's rounds, closed cleanly
  /// (everything in the main file), and one leaf page of the answer table overwritten: the
  /// folder, the database, the page and how many answers were on it.
  static func damagedDatabase() throws -> (SQLiteStoreTests.Folder, String, lostPage: Int, lost: Int) {
    let (folder, path, page, cells) = try database()
    try damage(path, page: page)
    return (folder, path, page, cells)
  }

  /// The database of `damagedDatabase` before the damage, and the page that `damage` overwrites.
  static func database() throws -> (SQLiteStoreTests.Folder, String, lostPage: Int, lost: Int) {
    let folder = try SQLiteStoreTests.Folder()
    let path = folder.path + "/reckon.sqlite"
    do {
      let store = SQLiteStore.open(path: path)
      try store.saveSetting("digits", value: "14", profile: "ada", at: 0)
      try store.write(
        GameResults.Save(
          GameResult(
            profile: "bob", game: "anagram", startedAt: 5, day: Day(number: 1), finished: true, score: 3, data: "{}")))
      try store.withDatabase { (db) throws(SQLiteError) in
        try db.execute(
          """
          WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(answers))
          INSERT INTO answer (profile, mode, item, given, correct, milliseconds, answeredAt, day)
          SELECT 'ada', 'drill', (i % 12) || '×' || (i % 11), 'x', i % 2, 900, i, 0 FROM n
          """)
      }
    }
    // The answer table's leaf pages, from SQLite's own page map (dbstat); the middle one goes.
    let leaves = try Database(path, flags: .readOnly).all(
      "SELECT pageno, ncell FROM dbstat WHERE name = 'answer' AND pagetype = 'leaf' ORDER BY pageno"
    ) { (row) throws(SQLiteError) in (try row[0] as Int, try row[1] as Int) }
    let (page, cells) = try #require(leaves.count > 10 ? leaves[leaves.count / 2] : nil)
    return (folder, path, page, cells)
  }

  /// Page `page` of the database at `path` overwritten.
  static func damage(_ path: String, page: Int) throws {
    let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
    try handle.seek(toOffset: UInt64((page - 1) * 4096))
    try handle.write(contentsOf: Data(repeating: 0xA5, count: 4096))
    try handle.close()
    #expect(try Database(path, flags: .readOnly).value("PRAGMA integrity_check") as String? != "ok")
  }

  @Test func theReadableRowsGoIntoAFreshFileAndTheDamagedOneIsKept() throws {
    let (folder, path, page, lost) = try Self.damagedDatabase()
    let store = SQLiteStore(path: path)
    let totals = try store.read(Answers.Totals(profile: "ada", mode: "drill"))
    let notices = store.takeNotices()
    #expect(notices.count == 1)
    #expect(store.takeNotices().isEmpty)
    let answered = totals.values.reduce(0) { $0 + $1.answered }
    // The answers of the page overwritten are lost (and counted, from the indexes); every
    // other answer is there.
    #expect(lost > 10)
    #expect(answered == Self.answers - lost)
    #expect(try store.settings(profile: "ada") == ["digits": "14"])
    #expect(try store.read(GameResults.All(profile: "bob", game: "anagram")).map(\.score) == [3])
    // The fresh file is whole; the damaged one is beside it, as it was.
    #expect(try Database(path, flags: .readOnly).value("PRAGMA integrity_check") as String? == "ok")
    let aside = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
      $0.contains(".corrupt-") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm")
    }
    #expect(aside.count == 1)
    #expect(
      try Database(folder.path + "/" + aside[0], flags: .readOnly).value("PRAGMA integrity_check") as String? != "ok")
    let damage = "SQLite's check of its pages found damage: Page \(page): btreeInitPage() returns error code 11"
    let kept =
      "\((Self.answers - lost).grouped) answers (\(lost) could not be read), 1 game result, 1 setting, 2 profiles"
    let expected: String =
      "\(path) was damaged (\(damage)). Reckon copied what could be read into a fresh file, which it uses from now on: "
      + "\(kept). The damaged file was moved to \(folder.path)/\(aside[0])"
    #expect(notices.first == expected)
    // And it goes on: a new answer is saved after the others.
    try store.write(
      Answers.Record(
        AnswerRecord(
          profile: "ada", mode: "drill", item: "new", given: "4", correct: true, milliseconds: 1, answeredAt: 9,
          day: Day(number: 0)), learn: nil))
    #expect(try SQLiteStore.open(path: path).read(Answers.Totals(profile: "ada", mode: "drill"))["new"]?.answered == 1)
  }

  /// A header whose schema format no SQLite writes ("unsupported file format", an error
  /// SQLite does not call damage) is damage to Reckon: the file is salvaged at opening, with
  /// every row (it was tried again for a second and a half, then left unsaved).
  @Test func anUnsupportedFileFormatIsSalvaged() throws {
    let (folder, path, _, lost) = try Self.damagedDatabase()
    defer { _ = folder }
    let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
    try handle.seek(toOffset: 47)
    try handle.write(contentsOf: Data([9]))
    try handle.close()
    let store = SQLiteStore.open(path: path)
    #expect(store.path == path)
    #expect(store.warnings.count == 1)
    #expect(store.warnings.first?.hasPrefix("\(path) was damaged (unsupported file format). Reckon copied") == true)
    #expect(try store.settings(profile: "ada") == ["digits": "14"])
    #expect(
      try store.read(Answers.Totals(profile: "ada", mode: "drill")).values.reduce(0) { $0 + $1.answered } == Self
        .answers - lost)
  }

  /// Damage no read meets: a pointer of the answers' root sent to another of its leaves, so
  /// that SQLite reads that leaf twice over and never the one it replaced, without an error
  /// (the attack round's profile showed 16 answers of 605 at every start). The check at
  /// opening (`quick_check`) finds it, and the file is salvaged before the first read: every
  /// answer is there, the hidden leaf's too.
  @Test func damageNoReadMeetsIsFoundAtOpening() throws {
    let (folder, path, _, _) = try Self.database()
    defer { _ = folder }
    // The root's first child pointer, to its third child.
    let db = try Database(path, flags: .readOnly)
    let root = try #require(try db.value("SELECT rootpage FROM sqlite_master WHERE name = 'answer'", as: Int.self))
    let leaves = try db.all(
      "SELECT pageno FROM dbstat WHERE name = 'answer' AND pagetype = 'leaf' ORDER BY path"
    ) { (row) throws(SQLiteError) in try row[0] as Int }
    let hidden = try db.value("SELECT ncell FROM dbstat WHERE pageno = ?", leaves[0], as: Int.self) ?? 0
    var bytes = [UInt8](try #require(FileManager.default.contents(atPath: path)))
    let at = (root - 1) * 4096
    #expect(bytes[at] == 5, "the root is an interior page")
    let cell = Int(bytes[at + 12]) << 8 | Int(bytes[at + 13])
    for i in 0..<4 { bytes[at + cell + i] = UInt8(truncatingIfNeeded: leaves[2] >> (24 - 8 * i)) }
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    // SQLite reads it without a word, and counts short.
    let counted = try Database(path, flags: .readOnly).value("SELECT count(given) FROM answer", as: Int.self)
    #expect(counted != Self.answers)
    let store = SQLiteStore(path: path)
    let totals = try store.read(Answers.Totals(profile: "ada", mode: "drill"))
    #expect(totals.values.reduce(0) { $0 + $1.answered } == Self.answers, "\(hidden) answers were hidden")
    let notices = store.takeNotices()
    #expect(notices.count == 1)
    #expect(notices.first?.contains("was damaged (SQLite's check of its pages found damage: ") == true, "\(notices)")
    #expect(notices.first?.contains("\(Self.answers.grouped) answers, ") == true, "\(notices)")
  }

  /// A write that meets the damage is salvaged the same way, and is made in the fresh file.
  @Test func aWriteThatMeetsTheDamageIsMadeInTheFreshFile() throws {
    let (folder, path, _, lost) = try Self.damagedDatabase()
    defer { _ = folder }
    let store = SQLiteStore(path: path)
    // A write whose transaction reads every answer, and an answer saved in the same one.
    let counted = try store.write { (db) throws(SQLiteError) -> Int in
      try db.run(
        """
        INSERT INTO answer (profile, mode, item, given, correct, milliseconds, answeredAt, day)
        VALUES ('ada', 'drill', 'new', '4', 1, 1, 9, 0)
        """)
      return try db.value("SELECT count(*) FROM answer WHERE given = 'x'") ?? 0
    }
    #expect(store.takeNotices().count == 1)
    #expect(counted == Self.answers - lost)
    #expect(try SQLiteStore.open(path: path).read(Answers.Totals(profile: "ada", mode: "drill"))["new"]?.answered == 1)
  }
}

/// Another Reckon with the damaged file open when one salvages it: its next write goes into
/// the fresh file, not the one moved aside, and it reads the fresh one too.
@Suite struct SalvageWithAnotherReckonTests {
  @Test func anotherReckonsNextWriteGoesIntoTheFreshFile() throws {
    let (folder, path, page, _) = try SalvageTests.database()
    defer { _ = folder }
    let other = SQLiteStore(path: path)
    other.prepareToSave()  // open, as a Reckon in the middle of a drill has it
    try SalvageTests.damage(path, page: page)
    let salvager = SQLiteStore(path: path)
    _ = try salvager.read(Answers.Totals(profile: "ada", mode: "drill"))
    #expect(salvager.takeNotices().count == 1)
    try other.write(
      Answers.Record(
        AnswerRecord(
          profile: "ada", mode: "drill", item: "after", given: "1", correct: true, milliseconds: 1, answeredAt: 9,
          day: Day(number: 0)), learn: nil))
    #expect(
      try SQLiteStore.open(path: path).read(Answers.Totals(profile: "ada", mode: "drill"))["after"]?.answered == 1)
    let aside = try #require(
      try FileManager.default.contentsOfDirectory(atPath: folder.path).first {
        $0.contains(".corrupt-") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm")
      })
    let inAside =
      try Database(folder.path + "/" + aside, flags: .readOnly).value(
        "SELECT count(*) FROM answer WHERE id > ?", SalvageTests.answers) as Int?  // (the rows after the damage)
    #expect(inAside == 0, "nothing written into the file moved aside")
    #expect(try other.read(Answers.Totals(profile: "ada", mode: "drill"))["after"]?.answered == 1)
    // The fresh file is whole.
    #expect(try Database(path, flags: .readOnly).value("PRAGMA integrity_check") as String? == "ok")
  }
}
