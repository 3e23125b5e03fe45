import ReckonCore
import ReckonSession
import SQLite

/// An Anki package (`.apkg`) read into a deck's notes: a zip holding an SQLite collection,
/// either `collection.anki21b` (Anki 2.1.50 on, compressed with Zstandard, note types in
/// tables of their own) or the older `collection.anki21` and `collection.anki2` (note types
/// as JSON in the `col` row), which Anki writes with "Support older Anki versions" and
/// genanki writes. The collection is read in memory, never written to disk.
///
/// A package may have been made to do harm, so the collection is read as a hostile file
/// (`Collection`): its schema checked before any query, SQLite's limits set low, every query
/// on a budget of work and of bytes that the collection's own size sets, and Ctrl-C heard.
public struct AnkiPackage: DeckPackages {
  /// The largest collection read (uncompressed): the collection of a deck of 100,000 notes
  /// is about 100 MB. SQLite reads it where it was inflated, never a copy.
  static let limit = 256 << 20

  public init() {}

  public func deck(fromPackage bytes: [UInt8], interruption: Interruption) -> Result<DeckText, FileError> {
    do throws(Zip.Problem) {
      let zip = try Zip(bytes)
      let limit = AnkiPackage.limit
      // A package for new Ankis also holds a collection.anki2 with one note saying "please
      // update Anki": the newest collection is the one to read.
      guard
        let (entry, zstd) = [("collection.anki21b", true), ("collection.anki21", false), ("collection.anki2", false)]
          .lazy.compactMap({ name, zstd in zip.entry(named: name).map { ($0, zstd) } }).first
      else {
        return .failure(FileError("it is not an Anki package: it holds no collection.anki2 or collection.anki21b"))
      }
      var collection = try zip.contents(of: entry, limit: limit, interruption: interruption)
      if zstd {
        collection = try Zip.decompress(
          collection.bytes, zstd: true, limit: limit, name: entry.name, interruption: interruption)
      }
      return AnkiPackage.deck(fromCollection: collection, named: entry.name, interruption: interruption)
    } catch {
      return .failure(error.interrupted ? FileError.interrupted : FileError(error.message))
    }
  }

  /// The deck in a collection's bytes (an SQLite database), whose entry is called `name`.
  /// The collection's bytes are let go of once SQLite has its copy.
  public static func deck(
    fromCollection collection: inout [UInt8], named name: String, interruption: Interruption = .never
  ) -> Result<DeckText, FileError> {
    guard let image = collection.withUnsafeBytes({ DatabaseImage(copying: $0) }) else {
      return .failure(FileError("there is not enough memory to read its \(name)"))
    }
    collection = []
    return deck(fromCollection: image, named: name, interruption: interruption)
  }

  /// The deck in a collection (an SQLite database) in memory SQLite allocated, which SQLite
  /// takes and reads where it is.
  static func deck(
    fromCollection collection: DatabaseImage, named name: String, interruption: Interruption
  ) -> Result<DeckText, FileError> {
    guard collection.bytes.starts(with: "SQLite format 3\0".utf8) else {
      return .failure(FileError("its \(name) is not an SQLite database"))
    }
    let size = collection.count
    do throws(Collection.Refusal) {
      let reader = try Collection(collection, interruption: interruption)
      let (types, notes) = try reader.notes()
      guard let deck = AnkiNotes.deck(notes, types: types, interruption: interruption) else {
        throw .interrupted
      }
      return deck.refusedWhenEmpty()
    } catch .interrupted {
      return .failure(FileError.interrupted)
    } catch {
      return .failure(FileError("its \(name) cannot be read: \(error.message(size: size))"))
    }
  }
}

/// An Anki collection open for reading, as a file that may have been made to do harm.
///
/// - Its schema is checked before any query: the tables Reckon reads (`notes`, `cards`, and
///   `col`, or `notetypes`, `fields`, `templates` and `decks`) must be tables as Anki makes
///   them, not a view (which could be an endless recursive query), a virtual table, a table
///   with a column worked out as it is read (a generated column), or one with a trigger.
/// - SQLite's limits are low for the connection (`limits`): a value of at most 32 MiB, a
///   statement (the schema's included) of at most 64 KiB and an expression 100 deep.
/// - Every query runs on a budget of SQLite's steps that the collection's size sets (16 a
///   byte, and 10 million more: reading a collection Anki wrote takes a fraction of that),
///   and Ctrl-C (`interruption`) is heard every thousand steps; the text read, all queries
///   together, may not pass the collection's own size (what comes out of a table is what is
///   in the file), with 1 MiB to spare.
/// - Nothing it reads needs an index: the notes and cards are each read once, in their
///   table's order, and joined here (a collection whose `cards.nid` index was dropped made
///   the query for each note's deck read every card once a note: over 100 s for 3.9 MB).
///
/// SQLite's heap limit (`sqlite3_hard_heap_limit64`) is not used: it is the process's, shared
/// by the profile's own connection and the background checkpoint's, and the collection's
/// image in memory (up to 256 MiB) is itself allocated from that heap. The limits above bound
/// what a query can make, and the budgets what all of them together can.
final class Collection {
  enum Refusal: Error {
    /// Ctrl-C.
    case interrupted
    /// More of SQLite's steps than the collection's size allows.
    case outOfWork
    /// More text read than the collection holds.
    case tooMuchText
    /// What is wrong, in words for the user.
    case because(String)
    case sqlite(SQLiteError)

    func message(size: Int) -> String {
      switch self {
      case .interrupted: "interrupted"
      case .outOfWork:
        "reading it takes more work than a collection of \(DeckText.describe(bytes: size)) needs: it is not one "
          + "Anki wrote"
      case .tooMuchText:
        "its tables give more text than the \(DeckText.describe(bytes: size)) it holds: it is not a collection "
          + "Anki wrote"
      case .because(let why): why
      case .sqlite(let error): error.message
      }
    }
  }

  /// SQLite's limits for the collection's connection, set before its schema is read.
  static let limits: [(Database.Limit, Int32)] = [
    (.length, 32 << 20), (.sqlLength, 64 << 10), (.expressionDepth, 100), (.compoundSelect, 8),
    (.programLength, 10_000), (.functionArguments, 8), (.attached, 0), (.patternLength, 100),
    (.triggerDepth, 1), (.workerThreads, 0),
  ]

  /// How many of SQLite's steps each progress check stands for.
  static let stepsPerCheck: Int32 = 1000
  /// The most rows read of the note types, fields, templates and decks.
  static let maxRows = 100_000

  let db: Database
  /// SQLite's steps left, in thousands.
  private var checksLeft: Int
  /// The bytes of text still to be read.
  private var bytesLeft: Int
  /// Why the progress handler stopped a query, if it did.
  private var stopped: Refusal?
  let interruption: Interruption

  /// Opens the collection in `image` (which SQLite takes) and checks its schema.
  init(_ image: DatabaseImage, interruption: Interruption) throws(Refusal) {
    let size = image.count
    do throws(SQLiteError) {
      db = try Database.reading(image, limits: Collection.limits)
    } catch {
      throw .sqlite(error)
    }
    self.interruption = interruption
    checksLeft = 10_000 + 16 * size / Int(Collection.stepsPerCheck)
    bytesLeft = size + (1 << 20)
    db.setProgressHandler(every: Collection.stepsPerCheck) { [unowned self] in
      if self.interruption.isRequested {
        self.stopped = .interrupted
        return true
      }
      self.checksLeft -= 1
      if self.checksLeft < 0 {
        self.stopped = .outOfWork
        return true
      }
      return false
    }
    try checkSchema()
  }

  /// Runs `body`, which queries the collection, saying why a query was stopped. (It answers
  /// nothing, so it is made once: `body` keeps what it reads.)
  func reading(_ body: () throws(SQLiteError) -> Void) throws(Refusal) {
    do throws(SQLiteError) {
      try body()
    } catch {
      throw refusal(for: error)
    }
  }

  /// Why a query failed, in the collection's terms.
  @inline(never)
  private func refusal(for error: SQLiteError) -> Refusal {
    if let stopped, error.is(.interrupt) { return stopped }
    if bytesLeft < 0 { return .tooMuchText }
    if error.is(.tooBig) {
      return .because("it holds a value larger than the \(DeckText.describe(bytes: 32 << 20)) Reckon reads")
    }
    return .sqlite(error)
  }

  /// Counts text read against the collection's size: past it, a query stops.
  func take(_ text: String) throws(SQLiteError) -> String {
    bytesLeft -= text.utf8.count
    guard bytesLeft >= 0 else { throw SQLiteError(code: .tooBig, message: "more text than the collection holds") }
    return text
  }

  func take(_ blob: Blob) throws(SQLiteError) -> [UInt8] {
    bytesLeft -= blob.bytes.count
    guard bytesLeft >= 0 else { throw SQLiteError(code: .tooBig, message: "more text than the collection holds") }
    return blob.bytes
  }

  // MARK: The schema

  /// Whether the collection keeps its note types in tables (Anki 2.1.50 on).
  private(set) var isModern = false

  /// Refuses a collection whose tables Reckon reads are not plain tables (see the type's
  /// summary), with the reason.
  private func checkSchema() throws(Refusal) {
    // Reading the schema parses every statement in it, within the limits. (SQLite's names
    // are the same whatever their case, in ASCII.)
    var objects: [(type: String, name: String, table: String, sql: String)] = []
    try reading {
      () throws(SQLiteError) in
      objects = try db.all(
        """
        SELECT type, name, tbl_name, sql FROM sqlite_master
        WHERE lower(name) IN ('notes', 'cards', 'col', 'notetypes', 'fields', 'templates', 'decks')
          OR lower(tbl_name) IN ('notes', 'cards', 'col', 'notetypes', 'fields', 'templates', 'decks')
        """
      ) { (row) throws(SQLiteError) in
        (
          type: try row[0] as String, name: (try row[1] as String).lowercased(),
          table: (try row[2] as String).lowercased(), sql: (try row[3] as String?) ?? ""
        )
      }
    }
    isModern = objects.contains { $0.name == "notetypes" }
    let needed = ["notes", "cards"] + (isModern ? ["notetypes", "fields", "templates", "decks"] : ["col"])
    for name in needed {
      guard let object = objects.first(where: { $0.name == name && $0.type != "trigger" }) else {
        throw .because("it has no \(name) table")
      }
      guard object.type == "table" else {
        throw .because("its \(name) is a \(object.type), not a table (Anki writes tables)")
      }
      // (SQLite keeps one space after the statement's first two words.)
      guard object.sql.uppercased().hasPrefix("CREATE TABLE ") else {
        throw .because("its \(name) is a virtual table (Anki writes plain tables)")
      }
      if let trigger = objects.first(where: { $0.type == "trigger" && $0.table == name }) {
        throw .because("it has a trigger on \(name), \(trigger.name) (Anki writes none)")
      }
      var generated = 0
      try reading {
        () throws(SQLiteError) in
        generated = try db.value("SELECT count(*) FROM pragma_table_xinfo(?) WHERE hidden = 2", name, as: Int.self) ?? 0
      }
      if generated > 0 {
        throw .because(
          "its \(name) table has a column worked out as it is read (a generated column; Anki writes none)")
      }
    }
  }

  // MARK: The notes

  /// Every note of the collection (the first `DeckText.maxNotes` and one more, in order of
  /// their ids), with its note type and the deck of its first card; the note types by id.
  func notes() throws(Refusal) -> (types: [Int64: AnkiNotes.NoteType], notes: [AnkiNotes.Note]) {
    let types = isModern ? try noteTypes() : try legacyNoteTypes()
    let decks = isModern ? try deckNames() : try legacyDeckNames()
    var notes: [AnkiNotes.Note] = []
    var byID: [Int64: Int] = [:]
    try reading {
      () throws(SQLiteError) in
      let statement = try db.cached("SELECT id, guid, mid, tags, flds FROM notes ORDER BY id LIMIT ?")
      try statement.bind(DeckText.maxNotes + 1)
      try statement.forEachRow { (row) throws(SQLiteError) in
        let id: Int64 = try row[0]
        byID[id] = notes.count
        notes.append(
          AnkiNotes.Note(
            id: id, guid: try take(row[1] as String), type: try row[2],
            fields: try take(row[4] as String).split(separator: "\u{1F}", omittingEmptySubsequences: false).map(
              String.init),
            tags: try take(row[3] as String).split(separator: " ").map(String.init), deck: nil))
        return true
      }
    }
    // Each note's deck is its first card's: the cards read once, the lowest ordinal of each
    // note kept.
    var first: [Int: (ord: Int64, deck: Int64)] = [:]
    try reading {
      () throws(SQLiteError) in
      try db.cached("SELECT nid, ord, did FROM cards").forEachRow { (row) throws(SQLiteError) in
        guard let index = byID[try row[0] as Int64] else { return true }
        let (ord, deck): (Int64, Int64) = (try row[1], try row[2])
        if let known = first[index], known.ord <= ord { return true }
        first[index] = (ord, deck)
        return true
      }
    }
    for (index, card) in first { notes[index].deck = decks[card.deck] }
    return (types, notes)
  }

  /// Calls `row` with each row of `sql` (which ends `LIMIT ?`), at most `maxRows`; more is
  /// refused as `what`.
  private func forEachRow(_ sql: String, _ what: String, _ row: (Row) throws(SQLiteError) -> Void) throws(Refusal) {
    var count = 0
    try reading {
      () throws(SQLiteError) in
      let statement = try db.cached(sql)
      try statement.bind(Collection.maxRows + 1)
      try statement.forEachRow { (read) throws(SQLiteError) in
        count += 1
        if count <= Collection.maxRows { try row(read) }
        return true
      }
    }
    guard count <= Collection.maxRows else {
      throw .because("it has more than \(Collection.maxRows.grouped) \(what) (Reckon reads at most that many)")
    }
  }

  // MARK: Anki 2.1.50 on: note types, fields and templates in tables

  private func noteTypes() throws(Refusal) -> [Int64: AnkiNotes.NoteType] {
    // Each note type's fields in order, and its first card's template (the lowest ordinal):
    // SQLite sorts them (without an index, once), so they are taken as they come.
    var fields: [Int64: [String]] = [:]
    try forEachRow("SELECT ntid, name FROM fields ORDER BY ntid, ord LIMIT ?", "fields") {
      (row) throws(SQLiteError) in fields[try row[0] as Int64, default: []].append(try take(row[1] as String))
    }
    var templates: [Int64: [UInt8]] = [:]
    try forEachRow("SELECT ntid, config FROM templates ORDER BY ntid, ord LIMIT ?", "templates") {
      (row) throws(SQLiteError) in
      let id: Int64 = try row[0]
      if templates[id] == nil { templates[id] = try take(row[1] as Blob) }
    }
    var types: [Int64: AnkiNotes.NoteType] = [:]
    try forEachRow("SELECT id, name, config FROM notetypes LIMIT ?", "note types") {
      (row) throws(SQLiteError) in
      let id: Int64 = try row[0]
      // NotetypeConfig's field 1 is its kind (1: cloze); a template's 1 and 2 are its
      // question and answer formats (Anki's protocol buffers).
      let kind = Protobuf.varint(1, in: try take(row[2] as Blob)) ?? 0
      let first = templates[id] ?? []
      types[id] = AnkiNotes.NoteType(
        name: try take(row[1] as String), isCloze: kind == 1, fields: fields[id] ?? [],
        question: Protobuf.string(1, in: first) ?? "", answer: Protobuf.string(2, in: first) ?? "")
    }
    return types
  }

  /// Deck names, their levels joined by `::` as Anki shows them (kept with 0x1F between).
  private func deckNames() throws(Refusal) -> [Int64: String] {
    var names: [Int64: String] = [:]
    try forEachRow("SELECT id, name FROM decks LIMIT ?", "decks") { (row) throws(SQLiteError) in
      names[try row[0] as Int64] = try take(row[1] as String).split(
        separator: "\u{1F}", omittingEmptySubsequences: false
      ).joined(separator: "::")
    }
    return names
  }

  // MARK: Older collections: note types and decks as JSON

  private func legacyJSON(_ column: String) throws(Refusal) -> JSON {
    var text = "{}"
    try reading {
      () throws(SQLiteError) in
      if let value = try db.value("SELECT \(column) FROM col LIMIT 1", as: String.self) { text = try take(value) }
    }
    guard case .success(let json) = JSON.parse(text, maxValues: 1_000_000) else {
      throw .because("its \(column) are not JSON")
    }
    return json
  }

  private func legacyNoteTypes() throws(Refusal) -> [Int64: AnkiNotes.NoteType] {
    guard case .object(let members) = try legacyJSON("models") else { return [:] }
    var types: [Int64: AnkiNotes.NoteType] = [:]
    for member in members {
      guard let id = Int64(member.key) else { continue }
      let model = member.value
      let byOrder = { (list: JSON?) -> [JSON] in
        guard case .array(let values) = list else { return [] }
        return values.map(\.value).sorted { ($0["ord"]?.integer ?? 0) < ($1["ord"]?.integer ?? 0) }
      }
      let template = byOrder(model["tmpls"]).first
      types[id] = AnkiNotes.NoteType(
        name: model["name"]?.string ?? "", isCloze: model["type"]?.integer == 1,
        fields: byOrder(model["flds"]).map { $0["name"]?.string ?? "" },
        question: template?["qfmt"]?.string ?? "", answer: template?["afmt"]?.string ?? "")
    }
    return types
  }

  private func legacyDeckNames() throws(Refusal) -> [Int64: String] {
    guard case .object(let members) = try legacyJSON("decks") else { return [:] }
    var names: [Int64: String] = [:]
    for member in members {
      guard let id = Int64(member.key), let name = member.value["name"]?.string else { continue }
      names[id] = name
    }
    return names
  }
}

/// The two things Reckon reads of Anki's protocol buffers: a top-level field's varint and its
/// string, by field number. (A message is a run of tag, value; a tag is the field number
/// shifted left 3 with its wire type below.)
enum Protobuf {
  static func varint(_ field: Int, in bytes: [UInt8]) -> UInt64? {
    var found: UInt64?
    walk(bytes) { number, wire, value, _ in if number == field && wire == 0 { found = value } }
    return found
  }

  static func string(_ field: Int, in bytes: [UInt8]) -> String? {
    var found: String?
    walk(bytes) { number, wire, _, data in
      if number == field && wire == 2 { found = String(decoding: data, as: UTF8.self) }
    }
    return found
  }

  /// Calls `visit` with each top-level field: its number, wire type, varint value (wire 0)
  /// or bytes (wire 2). Stops at the first thing that is not a well-formed field.
  static func walk(_ bytes: [UInt8], _ visit: (Int, Int, UInt64, ArraySlice<UInt8>) -> Void) {
    var at = 0
    func readVarint() -> UInt64? {
      var value: UInt64 = 0
      var shift: UInt64 = 0
      while at < bytes.count, shift < 64 {
        let byte = bytes[at]
        at += 1
        value |= UInt64(byte & 0x7F) << shift
        if byte < 0x80 { return value }
        shift += 7
      }
      return nil
    }
    while at < bytes.count, let tag = readVarint() {
      let number = Int(truncatingIfNeeded: tag >> 3)
      switch tag & 7 {
      case 0:
        guard let value = readVarint() else { return }
        visit(number, 0, value, [])
      case 1:
        at += 8
      case 2:
        guard let length = readVarint(), length <= UInt64(bytes.count - at) else { return }
        visit(number, 2, 0, bytes[at..<at + Int(length)])
        at += Int(length)
      case 5:
        at += 4
      default:
        return
      }
    }
  }
}
