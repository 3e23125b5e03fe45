import Foundation
import Glibc
import SQLite
import Synchronization
import Testing

@testable import ReckonStore

/// A database of known content, with every mode's data, damaged in each way a disk, a crash
/// or an attacker can damage one, then salvaged: what the salvage keeps is compared with the
/// rows the test knows sit on pages that are not damaged (SQLite's own page map, `dbstat`,
/// read before the damage), and with what `sqlite3 .dump` reads from the same bytes. Reckon
/// must keep every row on an undamaged page and every row `.dump` reads, each as it was (but
/// where a changed byte landed inside the row itself, which no one can tell), and no row that
/// was not there (a deck deleted before the damage left its rows on the freelist: none comes
/// back). A salvage is bounded by work, not time: no expectation here reads a clock, and the
/// same damage salvaged with every core busy keeps the same rows.
@Suite struct CorruptionHarnessTests {
  /// The tables Reckon owns, and the rows the test database has in each.
  static let tables = [
    "answer", "factState", "daily", "gameResult", "profile", "setting", "bill", "billLine", "deckCard", "deckReview",
    "deckWeights",
  ]

  /// The database before any damage, and where each row of it lies.
  struct Original: Sendable {
    let bytes: [UInt8]
    /// Each table's rows, by rowid, as text (`quote` of each column, rowid first).
    let rows: [String: [Int64: String]]
    /// The pages each row lies on: its leaf and its overflow pages.
    let pagesOfRow: [String: [Int64: [Int]]]
    /// Each table's leaf pages in key order, and its interior pages (root first).
    let leaves: [String: [Int]]
    let interiors: [String: [Int]]
    /// Each table's root page.
    let roots: [String: Int]
    let pageCount: Int
    /// The rows of the deck deleted before the damage (`quote` of each column but the rowid).
    let deleted: Set<String>
  }

  static let pageSize = 4096

  /// Made once: 3 profiles, 12 settings, 600 answers, 150 facts' boxes, 60 daily challenges,
  /// 40 game results (two long enough for overflow pages), 10 bills and 145 of their lines,
  /// 600 flashcards (one on overflow pages), 100 reviews and a deck's FSRS weights, as the
  /// store writes them (the modes' tables made by their migrations); a deck of 300 cards
  /// added and deleted before the rest, so that the freelist holds its leaves; closed cleanly
  /// (no WAL).
  static let original: Original = {
    let folder = try! SQLiteStoreTests.Folder()
    let path = folder.path + "/reckon.sqlite"
    var deleted = Set<String>()
    do {
      let store = SQLiteStore.open(path: path)
      try! store.withDatabase { (db) throws(SQLiteError) in
        try db.execute(
          """
          INSERT INTO profile (name, createdAt) VALUES ('ada', 1764000000011), ('bob', 1764000000022),
            ('kid', 1764000000033);
          WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)
          INSERT INTO deckCard (profile, deck, note, ordinal, reverse, question, answer, tags, phase, step,
            stability, difficulty, due, lastReview, reviews, lapses, addedAt, cloze)
            SELECT 'ada', 'Old', 'old' || i, 1, 0, 'old question ' || i, 'old answer ' || i, '', 1, 0, NULL, NULL,
              1764000000000 + i, NULL, 0, 0, 1764000000000, NULL FROM n;
          """)
        deleted = Set(
          try db.all(
            """
            SELECT quote(profile) || '|' || quote(deck) || '|' || quote(note) || '|' || quote(question)
            FROM deckCard WHERE deck = 'Old'
            """
          ) { (row) throws(SQLiteError) in try row[0] as String })
        try db.execute(
          """
          WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 12)
          INSERT INTO setting (profile, key, value)
            SELECT CASE i % 3 WHEN 0 THEN 'ada' WHEN 1 THEN 'bob' ELSE 'kid' END, 'key' || i, 'value ' || i FROM n;
          WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 600)
          INSERT INTO answer (profile, mode, item, given, correct, milliseconds, answeredAt, day, category, difficulty)
            SELECT CASE i % 3 WHEN 0 THEN 'ada' WHEN 1 THEN 'bob' ELSE 'kid' END, 'drill', (i % 12) || '×' || (i % 11),
              'answer ' || i, i % 2, 900 + i, 1700000000000 + i * 1000, 19000 + i / 50,
              CASE WHEN i % 5 = 0 THEN 'science' END, CASE WHEN i % 5 = 0 THEN 'hard' END FROM n;
          WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 150)
          INSERT INTO factState (profile, mode, item, box, dueAt, shown)
            SELECT CASE i % 3 WHEN 0 THEN 'ada' WHEN 1 THEN 'bob' ELSE 'kid' END, 'drill', 'fact ' || i, 1 + i % 5,
              1700000000000 + i, i % 4 FROM n;
          WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 60)
          INSERT INTO daily (profile, day, difficulty, item, elapsed, finished, correct, given, updatedAt)
            SELECT CASE i % 3 WHEN 0 THEN 'ada' WHEN 1 THEN 'bob' ELSE 'kid' END, 19000 + i,
              CASE i % 3 WHEN 0 THEN 'easy' WHEN 1 THEN 'medium' ELSE 'hard' END, 'question ' || i, i * 100, i % 2,
              i % 3 = 0, 'answer ' || i, 1700000000000 + i FROM n;
          WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 40)
          INSERT INTO gameResult (profile, game, startedAt, day, finished, score, data)
            SELECT CASE i % 3 WHEN 0 THEN 'ada' WHEN 1 THEN 'bob' ELSE 'kid' END, 'anagram', 1700000000000 + i,
              19000 + i, 1, i, json_object('level', 'level ' || i,
                'words', CASE WHEN i IN (10, 30) THEN printf('%.*c', 6000, 'w') ELSE 'few' END) FROM n;
          WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 9)
          INSERT INTO bill (profile, startedAt, day, name, updatedAt)
            SELECT CASE i % 3 WHEN 0 THEN 'ada' WHEN 1 THEN 'bob' ELSE 'kid' END, 1764000000000 + i * 1000000,
              20400 + i, CASE WHEN i % 2 = 1 THEN 'dinner ' || i END, 1764000000005 + i * 1000000 FROM n;
          WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 144)
          INSERT INTO billLine (profile, startedAt, number, text, entries, at, undone)
            SELECT CASE i % 10 % 3 WHEN 0 THEN 'ada' WHEN 1 THEN 'bob' ELSE 'kid' END,
              1764000000000 + (i % 10) * 1000000, i / 10 + 1, 'ada ' || i || '.50 pizza', '[{"item":' || i || '}]',
              1764000000000 + i, i % 7 = 0 FROM n;
          WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 599)
          INSERT INTO deckCard (profile, deck, note, ordinal, reverse, question, answer, tags, phase, step,
            stability, difficulty, due, lastReview, reviews, lapses, addedAt, cloze)
            SELECT CASE i % 3 WHEN 0 THEN 'ada' WHEN 1 THEN 'bob' ELSE 'kid' END,
              CASE i % 2 WHEN 0 THEN 'Spanish' ELSE 'Capitals' END, printf('n%06d', i / 2), 1, i % 2,
              CASE WHEN i = 77 THEN printf('%.*c', 9000, 'q') ELSE 'question ' || i END, 'answer ' || i, 'tag',
              2, NULL, 3.5 + i, 5.25, 1764000000000 + i * 86400000, 1764000000000, 3, 0, 1764000000000, NULL FROM n;
          WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 99)
          INSERT INTO deckReview (profile, deck, note, ordinal, reverse, rating, at, milliseconds, stabilityBefore,
            difficultyBefore, undone)
            SELECT CASE i % 3 WHEN 0 THEN 'ada' WHEN 1 THEN 'bob' ELSE 'kid' END, 'Spanish', printf('n%06d', i), 1, 0,
              1 + i % 4, 1764000000000 + i, 3000, 2.5, 5.5, 0 FROM n;
          INSERT INTO deckWeights (profile, deck, weights, reviews, logLoss, at)
            VALUES ('ada', 'Spanish', '0.212 1.2931 2.3065 8.2956', 100, 0.3517, 1764000000000);
          DELETE FROM deckCard WHERE deck = 'Old';
          """)
      }
    }
    let db = try! Database(path, flags: .readOnly)
    var rows: [String: [Int64: String]] = [:]
    var pagesOfRow: [String: [Int64: [Int]]] = [:]
    var leaves: [String: [Int]] = [:]
    var interiors: [String: [Int]] = [:]
    var roots: [String: Int] = [:]
    for table in tables {
      rows[table] = try! Self.rows(of: table, in: "main", db)
      let map = try! db.all("SELECT pageno, pagetype, ncell, path FROM dbstat WHERE name = ? ORDER BY path", table) {
        (row) throws(SQLiteError) in (try row[0] as Int, try row[1] as String, try row[2] as Int, try row[3] as String)
      }
      roots[table] = map.first { $0.3 == "/" }!.0
      // The leaves hold the rows in rowid order, as many each as dbstat counts.
      let ordered = rows[table]!.keys.sorted()
      var next = 0
      var rowidAt: [String: [Int64]] = [:]
      var owners: [Int64: [Int]] = [:]
      for (page, type, cells, path) in map where type == "leaf" {
        leaves[table, default: []].append(page)
        rowidAt[path] = Array(ordered[next..<(next + cells)])
        for rowid in rowidAt[path]! { owners[rowid] = [page] }
        next += cells
      }
      precondition(next == ordered.count, "dbstat's cells are the rows")
      for (page, type, _, path) in map where type == "internal" { interiors[table, default: []].append(page) }
      // An overflow page's path is its leaf's, the cell's index (hex) and '+' its place.
      for (page, type, _, path) in map where type == "overflow" {
        let cellPath = path.split(separator: "+")[0]
        let leafPath = String(cellPath.dropLast(3))
        let cell = Int(cellPath.suffix(3), radix: 16)!
        owners[rowidAt[leafPath]![cell]]!.append(page)
      }
      pagesOfRow[table] = owners
    }
    precondition(try! db.value("PRAGMA freelist_count") as Int? ?? 0 > 3, "the deleted deck's pages are free")
    let bytes = [UInt8](FileManager.default.contents(atPath: path)!)
    precondition(
      !FileManager.default.fileExists(atPath: path + "-wal")
        || (try! FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as! Int) == 0)
    return Original(
      bytes: bytes, rows: rows, pagesOfRow: pagesOfRow, leaves: leaves, interiors: interiors, roots: roots,
      pageCount: bytes.count / pageSize, deleted: deleted)
  }()

  /// The rowids of the rows SQLite reads from a damaged file (as .dump reads: from the start
  /// and from the end, each until the damage) with a value not of its column's type (text
  /// in an INTEGER column, NULL in a NOT NULL one, a number in a TEXT one), as SQLite stores
  /// it in the damaged file (loading .dump's output would convert it).
  static func misfits(of table: String, damaged path: String) throws -> Set<Int64> {
    let db = try Database(SQLiteStore.fileURI(path, query: "mode=ro"), flags: [.readOnly, .uri])
    try db.execute("PRAGMA writable_schema = ON")
    let columns = try db.all("SELECT name, upper(type), \"notnull\", pk FROM pragma_table_info(?)", table) {
      (row) throws(SQLiteError) in (try row[0] as String, try row[1] as String, try row[2] as Bool, try row[3] as Int)
    }
    var tests: [String] = []
    for (name, type, notNull, key) in columns where !(key == 1 && type == "INTEGER") {
      // As Reckon writes them: an INTEGER column integers, a REAL or BOOLEAN one numbers.
      let kinds =
        type.contains("INT")
        ? "'integer'"
        : type.contains("BOOL") || type.contains("REAL")
          ? "'integer', 'real'" : type.contains("TEXT") ? "'text'" : "'integer', 'real', 'text', 'blob'"
      tests.append("typeof(\"\(name)\") NOT IN (\(kinds)\(notNull ? "" : ", 'null'"))")
    }
    guard !tests.isEmpty else { return [] }
    var found = Set<Int64>()
    for order in ["", " ORDER BY rowid DESC"] {
      let statement = try db.prepare(
        "SELECT rowid, \(tests.joined(separator: " OR ")) FROM \"\(table)\"\(order)")
      try? statement.forEachRow { (row) throws(SQLiteError) -> Bool in
        if try row[1] as Bool { found.insert(try row[0]) }
        return true
      }
    }
    return found
  }

  /// A table's rows by rowid, each as text: `quote` of every column.
  static func rows(of table: String, in schema: String, _ db: Database) throws -> [Int64: String] {
    let columns = try db.all("SELECT name FROM pragma_table_info(?, ?)", table, schema) {
      (row) throws(SQLiteError) in try row[0] as String
    }
    let text = columns.map { "quote(\"\($0)\")" }.joined(separator: " || '|' || ")
    let all = try db.all("SELECT rowid, \(text) FROM \(schema).\"\(table)\"") { (row) throws(SQLiteError) in
      (try row[0] as Int64, try row[1] as String)
    }
    return Dictionary(all, uniquingKeysWith: { first, _ in first })
  }

  // MARK: Damage

  enum Damage: CustomTestStringConvertible, Sendable {
    /// The middle leaf page of a table (its only one, for the small tables) zeroed.
    case zeroedLeaf(String)
    /// `count` bytes of one third of the file (0, 1, 2) flipped (XOR with a non-zero byte).
    case flips(third: Int, count: Int, seed: UInt64)
    /// The file cut at `fraction` of its length (not on a page boundary).
    case truncated(Double)
    /// The first 100 bytes (the header) replaced with random ones.
    case garbledHeader
    /// The header's schema format number (byte 47) changed to one no SQLite writes:
    /// "unsupported file format".
    case unsupportedFormat
    /// An interior page's first child pointer pointing back at the table's root.
    case cycle(String)
    /// An interior page's first child pointer pointing at another leaf of the table.
    case crossLink(String)
    /// A leaf copied over the next one, the one after that hollow (a table leaf whose one
    /// cell is zeros: rowid 0) and the next zeroed: a seek past the copy lands on rowid 0,
    /// below the one asked for, and the read from the end stops before it (found by
    /// scripts/crash-safety, where the cursor went back and round until the time ran out).
    case hollowAfterCopy(String)
    /// The header's page size (bytes 16 and 17) changed to another that SQLite takes (65,536
    /// is written as 1): every page but the first read from the wrong place.
    case pageSizeField(Int)
    /// The header's text encoding (bytes 56 to 59) changed to UTF-16 (2: little-endian, 3:
    /// big-endian): every text read garbled.
    case encodingField(Int)
    /// The header's count of pages (bytes 28 to 31) changed.
    case pageCountField(Int)
    /// Page `number` zeroed (1: the header and the schema's root).
    case zeroedPage(Int)
    /// `count` bytes anywhere in the file set to random values.
    case randomBytes(count: Int, seed: UInt64)

    var testDescription: String {
      switch self {
      case .pageSizeField(let size): "the header's page size changed to \(size)"
      case .encodingField(let value): "the header's text encoding changed to \(value)"
      case .pageCountField(let count): "the header's page count changed to \(count)"
      case .zeroedPage(let number): "page \(number) zeroed"
      case .randomBytes(let count, let seed): "\(count) random bytes (seed \(seed))"
      case .zeroedLeaf(let table): "a zeroed leaf page of \(table)"
      case .flips(let third, let count, let seed): "\(count) byte flips in third \(third + 1) (seed \(seed))"
      case .truncated(let fraction): "the file cut at \(Int(fraction * 100)) %"
      case .garbledHeader: "a garbled header"
      case .unsupportedFormat: "a schema format no SQLite writes"
      case .cycle(let table): "a cycle in \(table)'s b-tree"
      case .crossLink(let table): "two pointers to one leaf of \(table)"
      case .hollowAfterCopy(let table): "a leaf of \(table) copied over the next, the next two hollow and zeroed"
      }
    }

    /// Damages `bytes`; returns the pages changed (those a byte of which differs, or that
    /// are gone).
    func apply(to bytes: inout [UInt8], _ original: Original) -> Set<Int> {
      let size = CorruptionHarnessTests.pageSize
      switch self {
      case .pageSizeField(let value):
        bytes[16] = UInt8(value == 65536 ? 0 : value >> 8)
        bytes[17] = UInt8(value == 65536 ? 1 : value & 255)
        return [1]
      case .encodingField(let value):
        bytes[59] = UInt8(value)
        return [1]
      case .pageCountField(let count):
        for i in 0..<4 { bytes[28 + i] = UInt8(truncatingIfNeeded: count >> (24 - 8 * i)) }
        return [1]
      case .zeroedPage(let number):
        for i in (number - 1) * size..<min(number * size, bytes.count) { bytes[i] = 0 }
        return [number]
      case .randomBytes(let count, let seed):
        var random = SplitMix(seed)
        var pages = Set<Int>()
        for _ in 0..<count {
          let offset = Int(random.next() % UInt64(bytes.count))
          let value = UInt8(truncatingIfNeeded: random.next())
          if bytes[offset] != value { pages.insert(offset / size + 1) }
          bytes[offset] = value
        }
        return pages
      case .zeroedLeaf(let table):
        let leaves = original.leaves[table]!
        let page = leaves[leaves.count / 2]
        for i in (page - 1) * size..<page * size { bytes[i] = 0 }
        return [page]
      case .flips(let third, let count, let seed):
        var random = SplitMix(seed)
        let span = bytes.count / 3
        var pages = Set<Int>()
        for _ in 0..<count {
          let offset = third * span + Int(random.next() % UInt64(span))
          bytes[offset] ^= UInt8(1 + random.next() % 255)
          pages.insert(offset / size + 1)
        }
        return pages
      case .truncated(let fraction):
        let cut = Int(Double(bytes.count) * fraction) + 1000
        bytes.removeLast(bytes.count - cut)
        return Set((cut / size + 1)...original.pageCount)
      case .garbledHeader:
        var random = SplitMix(7)
        for i in 0..<100 { bytes[i] = UInt8(truncatingIfNeeded: random.next()) }
        return [1]
      case .unsupportedFormat:
        bytes[47] = 9
        return [1]
      case .cycle(let table), .crossLink(let table):
        let root = original.roots[table]!
        let at = (root - 1) * size
        precondition(bytes[at] == 5, "the root is an interior page of a table")
        let cell = Int(bytes[at + 12]) << 8 | Int(bytes[at + 13])
        var target = root
        if case .crossLink = self { target = original.leaves[table]![2] }
        for (i, byte) in [
          UInt8(target >> 24), UInt8(target >> 16 & 255), UInt8(target >> 8 & 255), UInt8(target & 255),
        ]
        .enumerated() {
          bytes[at + cell + i] = byte
        }
        return [root]
      case .hollowAfterCopy(let table):
        let leaves = original.leaves[table]!
        let (copied, over, hollow, zeroed) = (leaves[3], leaves[4], leaves[5], leaves[6])
        for i in (zeroed - 1) * size..<zeroed * size { bytes[i] = 0 }
        bytes.replaceSubrange((over - 1) * size..<over * size, with: bytes[(copied - 1) * size..<copied * size])
        let at = (hollow - 1) * size
        for i in at..<at + size { bytes[i] = 0 }
        // A table leaf of one cell, at offset 4000, all zeros.
        bytes[at] = 13
        bytes[at + 4] = 1
        bytes[at + 5] = UInt8(4000 >> 8)
        bytes[at + 6] = UInt8(4000 & 255)
        bytes[at + 8] = UInt8(4000 >> 8)
        bytes[at + 9] = UInt8(4000 & 255)
        return [over, hollow, zeroed]
      }
    }
  }

  struct SplitMix {
    var state: UInt64
    init(_ seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  static let damages: [Damage] =
    tables.map { .zeroedLeaf($0) }
    + [0, 1, 2].flatMap { third in
      [Damage.flips(third: third, count: 3, seed: 11), .flips(third: third, count: 40, seed: 12)]
    }
    + [
      .truncated(0.25), .truncated(0.5), .truncated(0.75), .truncated(0.9), .garbledHeader, .unsupportedFormat,
      .cycle("answer"), .crossLink("answer"), .cycle("factState"), .hollowAfterCopy("answer"),
    ]
    + [65536, 32768, 16384, 8192, 2048, 1024, 512].map { Damage.pageSizeField($0) }
    + [.encodingField(2), .encodingField(3), .pageCountField(7), .pageCountField(1 << 30)]
    + [10, 100, 1000, 10000].flatMap { count in (1...3).map { Damage.randomBytes(count: count, seed: $0) } }

  /// Every page of the file zeroed, in turn.
  static let everyPage: [Damage] = (1...original.pageCount).map { Damage.zeroedPage($0) }

  // MARK: The oracle: sqlite3 .dump

  /// What `sqlite3 .dump` reads from `damaged`, loaded into a new database at `into` (the
  /// statements that fail are passed over, as the shell does).
  static func dump(_ damaged: String, into: String) throws {
    let dumped = try run("/usr/bin/sqlite3", [damaged, ".dump --preserve-rowids"])
    // After an error the dump ends in ROLLBACK: what it read is wanted all the same.
    let script = dumped.replacingOccurrences(of: "ROLLBACK; -- due to errors", with: "COMMIT;")
    _ = try run("/usr/bin/sqlite3", [into], input: script)
  }

  static func run(_ tool: String, _ arguments: [String], input: String? = nil) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle(forWritingAtPath: "/dev/null")
    let stdin = Pipe()
    process.standardInput = stdin
    try process.run()
    if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
    try stdin.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }

  // MARK: The cases

  @Test(arguments: damages)
  func aDamagedDatabaseKeepsEveryRowOnAnUndamagedPageAndEveryRowDumpReads(_ damage: Damage) throws {
    var bytes = Self.original.bytes
    let damaged = damage.apply(to: &bytes, Self.original)
    var changesAllowed = false
    var sqliteMisreads = false
    switch damage {
    case .flips, .randomBytes: changesAllowed = true
    case .pageSizeField, .encodingField, .garbledHeader: sqliteMisreads = true
    default: break
    }
    let (summary, _) = try Self.verify(
      bytes, damaged: damaged, changesAllowed: changesAllowed, sqliteMisreads: sqliteMisreads,
      label: damage.testDescription)
    print("\(damage.testDescription): \(summary)")
  }

  /// Every page zeroed in turn: the rows on every other page are kept, and no others.
  @Test func everyPageZeroedInTurn() throws {
    for damage in Self.everyPage {
      var bytes = Self.original.bytes
      let damaged = damage.apply(to: &bytes, Self.original)
      _ = try Self.verify(
        bytes, damaged: damaged, changesAllowed: false, sqliteMisreads: false, label: damage.testDescription)
    }
  }

  /// The same damage salvaged on an idle machine and with every core busy (threads that spin
  /// the whole time) keeps the same rows: the salvage's bound is its work, not the clock.
  @Test(arguments: [
    Damage.zeroedPage(1), .pageSizeField(65536), .cycle("answer"), .randomBytes(count: 100, seed: 2),
    .randomBytes(count: 1000, seed: 3),
  ])
  func theSameRowsWithEveryCoreBusy(_ damage: Damage) throws {
    var bytes = Self.original.bytes
    _ = damage.apply(to: &bytes, Self.original)
    func salvaged() throws -> [String: [Int64: String]] {
      let folder = try SQLiteStoreTests.Folder()
      let path = folder.path + "/reckon.sqlite"
      try SQLiteStoreTests.writePrivate(Data(bytes), to: path)
      guard case .salvaged(let report) = SQLiteStore.salvage(path, policy: SalvagePolicy()) else {
        Issue.record("\(damage.testDescription): not salvaged")
        return [:]
      }
      #expect(report.copy.stoppedEarly == nil)
      let db = try Database(path, flags: .readOnly)
      var rows: [String: [Int64: String]] = [:]
      for table in Self.tables { rows[table] = try Self.rows(of: table, in: "main", db) }
      return rows
    }
    let idle = try salvaged()
    let stop = Atomic<Bool>(false)
    let hogs = (0..<max(2, ProcessInfo.processInfo.activeProcessorCount * 2)).map { _ in
      Thread {
        var x: UInt64 = 1
        while !stop.load(ordering: .relaxed) { x = x &* 6_364_136_223_846_793_005 &+ 1 }
        _ = x
      }
    }
    for hog in hogs { hog.start() }
    let busy = try salvaged()
    stop.store(true, ordering: .relaxed)
    #expect(idle == busy, "\(damage.testDescription): other rows with every core busy")
  }

  /// Random damage of every kind, each seeded by its number, checked as above (but for the
  /// notice's count of what was lost). `RECKON_RANDOM_DAMAGES` says how many (12 here; a few
  /// thousand for a hunt: `RECKON_RANDOM_DAMAGES=3000 swift test --filter randomDamage`).
  @Test func randomDamageNeverSpinsAndKeepsWhatItShould() throws {
    let count = Int(ProcessInfo.processInfo.environment["RECKON_RANDOM_DAMAGES"] ?? "") ?? 12
    let first = UInt64(ProcessInfo.processInfo.environment["RECKON_RANDOM_FIRST"] ?? "") ?? 1
    var most = 0
    var salvaged = 0
    for seed in first..<(first + UInt64(count)) {
      var bytes = Self.original.bytes
      let (label, changesAllowed, duplicated) = Self.randomDamage(&bytes, seed: seed)
      var damaged = Set<Int>()
      for page in 1...Self.original.pageCount {
        let range = (page - 1) * Self.pageSize..<page * Self.pageSize
        if range.upperBound > bytes.count || bytes[range] != Self.original.bytes[range] { damaged.insert(page) }
      }
      let (_, work) = try Self.verify(
        bytes, damaged: damaged, changesAllowed: changesAllowed, sqliteMisreads: label.contains("header"),
        duplicated: duplicated,
        label: "seed \(seed): \(label)")
      most = max(most, work ?? 0)
      if work != nil { salvaged += 1 }
    }
    print("\(count) random damages, \(salvaged) salvaged, the most work \(most) units")
  }

  /// Damages `bytes` in a way drawn from `seed`; what it did, and whether it can change the
  /// bytes of a row without SQLite noticing (flips, random bytes).
  /// The third: pages whose bytes were copied over another's (their rows are in two places,
  /// one of which may be damaged further: no one can tell which copy is the original).
  static func randomDamage(_ bytes: inout [UInt8], seed: UInt64) -> (String, Bool, Set<Int>) {
    var duplicated = Set<Int>()
    var random = SplitMix(seed)
    func below(_ n: Int) -> Int { Int(random.next() % UInt64(max(n, 1))) }
    let pages = original.pageCount
    var what: [String] = []
    var changes = false
    func span(_ page: Int) -> Range<Int> {
      min((page - 1) * pageSize, bytes.count)..<min(page * pageSize, bytes.count)
    }
    for _ in 0..<(1 + below(3) / 2) {
      switch below(8) {
      case 0:
        let page = 1 + below(pages)
        for i in span(page) { bytes[i] = 0 }
        what.append("page \(page) zeroed")
      case 1:
        let page = 1 + below(pages)
        for i in span(page) { bytes[i] = UInt8(below(256)) }
        what.append("page \(page) random")
        changes = true
      case 2:
        let length = 1 + below(bytes.count / 3)
        let start = below(bytes.count - length)
        let flips = 1 + below(300)
        for _ in 0..<flips { bytes[start + below(length)] ^= UInt8(1 + below(255)) }
        what.append("\(flips) flips in \(start)..<\(start + length)")
        changes = true
      case 3:
        let cut = 1 + below(bytes.count - 1)
        bytes.removeLast(bytes.count - cut)
        what.append("cut at \(cut)")
      case 4:
        // A child pointer of an interior page (or its right child) to any page.
        let interiors = tables.flatMap { original.interiors[$0] ?? [] }
        let page = interiors[below(interiors.count)]
        let at = (page - 1) * pageSize
        guard at + 12 <= bytes.count else { continue }
        let cells = Int(bytes[at + 3]) << 8 | Int(bytes[at + 4])
        let pick = below(cells + 1)
        let offset =
          pick == cells ? at + 8 : at + (Int(bytes[at + 12 + 2 * pick]) << 8 | Int(bytes[at + 13 + 2 * pick]))
        guard offset + 4 <= bytes.count else { continue }
        let target = 1 + below(pages + 3)
        for i in 0..<4 { bytes[offset + i] = UInt8(truncatingIfNeeded: target >> (24 - 8 * i)) }
        what.append("a pointer of page \(page) to \(target)")
      case 5:
        let (from, to) = (1 + below(pages), 1 + below(pages))
        guard to * pageSize <= bytes.count, from * pageSize <= bytes.count else { continue }
        bytes.replaceSubrange((to - 1) * pageSize..<to * pageSize, with: bytes[(from - 1) * pageSize..<from * pageSize])
        what.append("page \(from) copied over page \(to)")
        duplicated.insert(from)
      case 6:
        let start = below(100)
        let end = start + 1 + below(100 - start)
        for i in start..<min(end, bytes.count) { bytes[i] = UInt8(below(256)) }
        what.append("header bytes \(start)..<\(end) random")
        changes = true
      default:
        // A cell pointer of a leaf to anywhere in its page.
        let leaves = tables.flatMap { original.leaves[$0] ?? [] }
        let page = leaves[below(leaves.count)]
        let at = (page - 1) * pageSize
        guard at + 8 <= bytes.count else { continue }
        let cells = Int(bytes[at + 3]) << 8 | Int(bytes[at + 4])
        guard cells > 0, at + 10 + 2 * cells <= bytes.count else { continue }
        let pick = below(cells)
        let target = below(pageSize)
        bytes[at + 8 + 2 * pick] = UInt8(target >> 8)
        bytes[at + 9 + 2 * pick] = UInt8(target & 255)
        what.append("cell pointer \(pick) of page \(page) to \(target)")
        changes = true
      }
    }
    return (what.joined(separator: ", "), changes, duplicated)
  }

  /// Each table's rows as values (but the rowid's own column), by rowid: to tell a row of
  /// one table read as another's (a pointer damaged to point at another table's leaf, or a
  /// header that makes SQLite read the wrong pages) from a row of its own.
  static func values(of table: String, in schema: String, _ db: Database) throws -> [Int64: [DatabaseValue]] {
    let columns = try db.all("SELECT name, pk, upper(type) FROM pragma_table_info(?, ?)", table, schema) {
      (row) throws(SQLiteError) in (try row[0] as String, try row[1] as Int, try row[2] as String)
    }
    let keys = columns.filter { $0.1 > 0 }
    let list = columns.filter { !(keys.count == 1 && $0.1 == 1 && $0.2 == "INTEGER") }.map { "\"\($0.0)\"" }
    var found: [Int64: [DatabaseValue]] = [:]
    let statement = try db.prepare("SELECT rowid, \(list.joined(separator: ", ")) FROM \(schema).\"\(table)\"")
    try? statement.forEachRow { (row) throws(SQLiteError) -> Bool in
      var values: [DatabaseValue] = []
      for column in 1..<row.count { values.append(try row[column]) }
      found[try row[0]] = values
      return true
    }
    return found
  }

  /// Whether two rows' values are the same, a whole real and an integer alike, and two reals
  /// within `tolerance` of each other (relatively).
  static func same(_ a: [DatabaseValue], _ b: [DatabaseValue], within tolerance: Double = 0) -> Bool {
    guard a.count == b.count else { return false }
    return zip(a, b).allSatisfy { x, y in
      switch (x, y) {
      case (.integer(let m), .real(let r)), (.real(let r), .integer(let m)): Double(m) == r
      case (.real(let r), .real(let q)): r == q || abs(r - q) <= tolerance * max(abs(r), abs(q))
      default: x == y
      }
    }
  }

  /// Salvages `bytes` (damaged on `damaged` pages) and checks what was kept; a summary, and
  /// the units of work the salvage took (nil if it did not salvage). `changesAllowed`: the
  /// damage may change the bytes of a row without anyone noticing (random bytes, flips).
  /// `sqliteMisreads`: the header makes SQLite read the file wrong (a page size, a text
  /// encoding), so what `.dump` reads is not the file's rows.
  static func verify(
    _ bytes: [UInt8], damaged: Set<Int>, changesAllowed: Bool, sqliteMisreads: Bool, duplicated: Set<Int> = [],
    label: String
  ) throws -> (String, work: Int?) {
    let original = Self.original
    let folder = try SQLiteStoreTests.Folder()
    let path = folder.path + "/reckon.sqlite"
    try SQLiteStoreTests.writePrivate(Data(bytes), to: path)
    if let keep = ProcessInfo.processInfo.environment["RECKON_KEEP_DAMAGED"] {
      try Data(bytes).write(to: URL(fileURLWithPath: keep + "/" + label.replacingOccurrences(of: " ", with: "-")))
    }
    // The oracle reads a copy of the same bytes.
    try SQLiteStoreTests.writePrivate(Data(bytes), to: folder.path + "/copy.sqlite")
    try Self.dump(folder.path + "/copy.sqlite", into: folder.path + "/dumped.sqlite")

    let outcome = SQLiteStore.salvage(path, policy: SalvagePolicy())
    guard case .salvaged(let report) = outcome else {
      Issue.record("\(label): not salvaged: \(outcome)")
      return ("not salvaged", nil)
    }
    // Within its work: never stopped before the end by damage of this size.
    #expect(report.copy.stoppedEarly == nil, "\(label): \(report.copy.work) units for \(report.copy.pages) pages")
    // The damaged file is aside, byte for byte as it was.
    #expect(FileManager.default.contents(atPath: report.aside) == Data(bytes), "\(label)")
    let kept = try Database(path, flags: .readOnly)
    #expect(try kept.value("PRAGMA integrity_check") as String? == "ok", "\(label)")
    #expect(try kept.value("PRAGMA foreign_key_check") as String? == nil, "\(label)")
    let dumped = try Database(folder.path + "/dumped.sqlite", flags: .readOnly)
    let originalValues = try Self.originalValues()
    // No card of the deck deleted before the damage comes back (its leaves are on the freelist).
    let resurrected = try kept.value(
      """
      SELECT count(*) FROM deckCard WHERE quote(profile) || '|' || quote(deck) || '|' || quote(note) || '|'
        || quote(question) IN (\(original.deleted.map { "'" + $0.replacingOccurrences(of: "'", with: "''") + "'" }
          .joined(separator: ", ")))
      """, as: Int.self)
    #expect(resurrected == 0, "\(label): \(resurrected ?? -1) cards of the deleted deck came back")
    var summary: [String] = []
    for table in Self.tables {
      let rows = try Self.rows(of: table, in: "main", kept)
      let wanted = original.rows[table]!
      let owners = original.pagesOfRow[table]!
      // Every row on pages that are not damaged is kept, as it was.
      let whole = wanted.keys.filter { owners[$0]!.allSatisfy { !damaged.contains($0) } }
      // (A row whose page was copied over another may be kept from the copy, changed there.)
      let missing = whole.filter {
        rows[$0] != wanted[$0]
          && !(changesAllowed && rows[$0] != nil && owners[$0]!.contains(where: duplicated.contains))
      }
      #expect(
        missing.isEmpty,
        "\(label): \(table): \(missing.count) rows on undamaged pages not kept, e.g. \(missing.sorted().prefix(5))")
      // Every row .dump reads is kept, as it read it, but for one whose values are not of
      // their columns' types, one that is another table's row (SQLite follows a pointer damaged
      // to point at another table's leaf, and keeps reading), and anything read through a
      // header that makes SQLite read the file wrong.
      let dumpable = (try? dumped.tableExists(table)) == true
      let fromDump = dumpable ? try Self.rows(of: table, in: "main", dumped) : [:]
      let dumpValues = dumpable ? try Self.values(of: table, in: "main", dumped) : [:]
      let misfits = dumpable ? try Self.misfits(of: table, damaged: folder.path + "/copy.sqlite") : []
      let wholeSet = Set(whole)
      // Each original row's values but its rowid's own column, and its rowid: a row read under
      // another rowid (its key damaged) is one of these.
      let aliased = ["answer", "gameResult", "deckReview"].contains(table)
      func body(_ row: String) -> Substring { aliased ? row.drop { $0 != "|" } : Substring(row) }
      var rowidOf: [Substring: Int64] = [:]
      for (rowid, row) in wanted { rowidOf[body(row)] = rowid }
      // The primary key's columns (their places among the values but the rowid's own column),
      // for a table keyed by its values.
      let columns = try kept.all("SELECT name, pk, upper(type) FROM pragma_table_info(?)", table) {
        (row) throws(SQLiteError) in (try row[0] as String, try row[1] as Int, try row[2] as String)
      }
      let rowidAlias = columns.filter { $0.1 > 0 }.count == 1 && columns.contains { $0.1 == 1 && $0.2 == "INTEGER" }
      let valueColumns = columns.filter { !(rowidAlias && $0.1 == 1) }
      let key =
        rowidAlias ? [] : valueColumns.enumerated().filter { $0.element.1 > 0 }.map { ($0.offset, $0.element.0) }
      /// Whether an original row kept has the key of `values` (another row's, whose key a
      /// changed byte made the same).
      func keyTaken(_ values: [DatabaseValue]) throws -> Bool {
        guard !key.isEmpty, key.allSatisfy({ $0.0 < values.count }) else { return false }
        let condition = key.map { "\"\($0.1)\" IS ?" }.joined(separator: " AND ")
        let statement = try kept.prepare("SELECT rowid FROM \"\(table)\" WHERE \(condition)")
        for (place, (index, _)) in key.enumerated() { try statement.bind(values[index], at: place + 1) }
        var taken = false
        try statement.forEachRow { (row) throws(SQLiteError) -> Bool in
          let other: Int64 = try row[0]
          // The original row of that rowid had this key (a byte elsewhere in it may be changed).
          let original = originalValues[table]?[other]
          taken =
            rows[other] != nil
            && (rows[other] == wanted[other]
              || original.map { row in key.allSatisfy { $0.0 < row.count && Self.same([row[$0.0]], [values[$0.0]]) } }
                == true)
          return false
        }
        return taken
      }
      let keptValues = try Self.values(of: table, in: "main", kept)
      let notKept = try fromDump.filter { rowid, row in
        guard rows[rowid] != row else { return false }
        // (A real that .dump's text does not give back to the last bit: the same row.)
        if let mine = keptValues[rowid], let theirs = dumpValues[rowid], Self.same(mine, theirs, within: 1e-15) {
          return false
        }
        if wanted[rowid] == row { return true }
        if try keyTaken(dumpValues[rowid] ?? []) { return false }
        // Another row under this one's rowid (its key damaged, and perhaps a byte besides) while
        // this rowid has a row kept: two rows for one place, and .dump's is the one read first.
        if rows[rowid] != nil, let other = rowidOf[body(row)], other != rowid { return false }
        if rows[rowid] != nil, let values = dumpValues[rowid],
          originalValues[table]?.contains(where: { other, original in
            other != rowid && original.count == values.count
              && zip(original, values).filter { !Self.same([$0], [$1]) }.count <= 1
          }) == true
        {
          return false
        }
        // Another row whose rowid a changed byte made this one's: the original's row (on its
        // own undamaged page, or read whole from a damaged one) is the one kept.
        if wholeSet.contains(rowid) || (wanted[rowid] != nil && rows[rowid] == wanted[rowid]) { return false }
        if sqliteMisreads || misfits.contains(rowid) { return false }
        let values = dumpValues[rowid] ?? []
        // A profile whose name no profile can have (bytes of it changed) that no row names is
        // left out: the rows name the profile as it was, which comes back.
        if table == "profile", case .text(let name) = values.first,
          !name.allSatisfy({
            (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) || $0 == 45 || $0 == 46
              || $0 == 95
          })
        {
          return false
        }
        // A row naming a profile there never was (bytes of the name changed) is left out: it
        // would be a row of no one's, or make a profile of garbled bytes.
        if table != "profile", case .text(let name) = values.first,
          !["ada", "bob", "kid"].contains(String(decoding: name, as: UTF8.self))
        {
          return false
        }
        // (Read through a pointer into another table's leaf, each column from its place in
        // the record: the other row's first values.)
        let elsewhere = Self.tables.contains { other in
          other != table
            && originalValues[other]?[rowid].map {
              $0.count >= values.count && Self.same(Array($0.prefix(values.count)), values)
            } == true
        }
        return !elsewhere
      }
      #expect(
        notKept.isEmpty,
        "\(label): \(table): \(notKept.count) rows .dump reads not kept, e.g. \(notKept.keys.sorted().prefix(5))")
      // Every row kept is a row of the original (a profile whose row was lost comes back,
      // created at 0, and a bill from its lines), but for one that lay on a damaged page (its
      // leaf or an overflow page, which SQLite reads as it is, zeros and all); where bytes
      // were changed at random, a row may also have a rowid that was never there.
      var changed = 0
      for (rowid, row) in rows where wanted[rowid] != row {
        if table == "profile", row.hasSuffix("|0") { continue }  // (checked by foreign_key_check's other side)
        if table == "bill",
          try kept.value(
            "SELECT count(*) FROM bill WHERE rowid = ? AND name IS NULL AND day = startedAt / 86400000", rowid,
            as: Int.self) == 1
        {
          continue
        }
        guard
          owners[rowid].map({
            $0.contains(where: damaged.contains) || (changesAllowed && $0.contains(where: duplicated.contains))
          })
            ?? changesAllowed
        else {
          Issue.record(
            "\(label): \(table): row \(rowid) kept is not the original's: \(row.prefix(200)) (was \(wanted[rowid]?.prefix(200) ?? "none"))"
          )
          continue
        }
        changed += 1
      }
      // The notice's count of what was lost is right when it says it is exact.
      let lost = wanted.keys.filter { rows[$0] == nil }.count
      if !changesAllowed, let entry = report.copy.tables.first(where: { $0.name == table }), entry.lostIsExact,
        table != "profile", table != "bill"
      {
        #expect(
          entry.lost + entry.garbled == lost, "\(label): \(table): the notice says \(entry.lost) lost, \(lost) were")
      }
      summary.append(
        "\(table) \(rows.count)/\(wanted.count) (undamaged \(whole.count), dump \(fromDump.count)"
          + "\(changed > 0 ? ", \(changed) changed" : ""))")
    }
    // A profile that comes back, created at 0, is one that kept rows name.
    let restored = try kept.all("SELECT name FROM profile WHERE createdAt = 0") { (row) throws(SQLiteError) in
      try row[0] as String
    }
    for name in restored {
      let named = try Self.tables.filter { $0 != "profile" }.contains { table in
        try kept.value("SELECT count(*) FROM \"\(table)\" WHERE profile = ?", name, as: Int.self) ?? 0 > 0
      }
      #expect(named, "\(label): profile \(name) came back though no row names it")
    }
    return ("\(report.copy.work) units; " + summary.joined(separator: "; "), report.copy.work)
  }

  /// The original's rows as values, by table.
  static func originalValues() throws -> [String: [Int64: [DatabaseValue]]] {
    let folder = try SQLiteStoreTests.Folder()
    let path = folder.path + "/original.sqlite"
    try SQLiteStoreTests.writePrivate(Data(original.bytes), to: path)
    let db = try Database(path, flags: .readOnly)
    var all: [String: [Int64: [DatabaseValue]]] = [:]
    for table in tables { all[table] = try values(of: table, in: "main", db) }
    return all
  }
}
