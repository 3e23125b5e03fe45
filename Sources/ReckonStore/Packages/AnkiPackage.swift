import ReckonSession
import SQLite

/// An Anki package (`.apkg`) read into a deck's notes: a zip holding an SQLite collection,
/// either `collection.anki21b` (Anki 2.1.50 on, compressed with Zstandard, note types in
/// tables of their own) or the older `collection.anki21` and `collection.anki2` (note types
/// as JSON in the `col` row), which Anki writes with "Support older Anki versions" and
/// genanki writes. The collection is read in memory, never written to disk.
public struct AnkiPackage: DeckPackages {
  /// The largest collection read (uncompressed): the collection of a deck of 100,000 notes
  /// is about 100 MB. SQLite reads a copy of it, so a package may take twice this at most.
  static let limit = 256 << 20

  public init() {}

  public func deck(fromPackage bytes: [UInt8]) -> Result<DeckText, FileError> {
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
      var collection = try zip.contents(of: entry, limit: limit)
      if zstd { collection = try Zip.decompress(collection[...], zstd: true, limit: limit, name: entry.name) }
      return AnkiPackage.deck(fromCollection: &collection, named: entry.name)
    } catch {
      return .failure(FileError(error.message))
    }
  }

  /// The deck in a collection's bytes (an SQLite database), whose entry is called `name`.
  /// The collection's bytes are let go of once SQLite has its copy.
  public static func deck(fromCollection collection: inout [UInt8], named name: String) -> Result<DeckText, FileError> {
    guard collection.starts(with: Array("SQLite format 3\0".utf8)) else {
      return .failure(FileError("its \(name) is not an SQLite database"))
    }
    do throws(SQLiteError) {
      let db = try Database.reading(bytes: collection)
      collection = []
      let notes = try AnkiPackage.notes(in: db)
      return AnkiNotes.deck(notes).refusedWhenEmpty()
    } catch {
      return .failure(FileError("its \(name) cannot be read: \(error.message)"))
    }
  }

  /// Every note of the collection, with its note type and the deck of its first card.
  static func notes(in db: Database) throws(SQLiteError) -> [AnkiNotes.Note] {
    let modern = try db.tableExists("notetypes")
    let types = modern ? try noteTypes(in: db) : try legacyNoteTypes(in: db)
    let decks = modern ? try deckNames(in: db) : try legacyDeckNames(in: db)
    return try db.all(
      """
      SELECT id, guid, mid, tags, flds, (SELECT did FROM cards WHERE nid = notes.id ORDER BY ord LIMIT 1)
      FROM notes ORDER BY id LIMIT ?
      """, DeckText.maxNotes + 1
    ) { (row) throws(SQLiteError) in
      let deck: Int64? = try row[5]
      let type: Int64 = try row[2]
      return AnkiNotes.Note(
        id: try row[0], guid: try row[1], type: types.first { $0.id == type }?.type,
        fields: (try row[4] as String).split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init),
        tags: (try row[3] as String).split(separator: " ").map(String.init),
        deck: deck.flatMap { id in decks.first { $0.id == id }?.name })
    }
  }

  // MARK: Anki 2.1.50 on: note types, fields and templates in tables

  static func noteTypes(in db: Database) throws(SQLiteError) -> [(id: Int64, type: AnkiNotes.NoteType)] {
    let fields = try db.all("SELECT ntid, name FROM fields ORDER BY ntid, ord") { (row) throws(SQLiteError) in
      (id: try row[0] as Int64, name: try row[1] as String)
    }
    let templates = try db.all("SELECT ntid, config FROM templates ORDER BY ntid, ord") {
      (row) throws(SQLiteError) in (id: try row[0] as Int64, config: (try row[1] as Blob).bytes)
    }
    return try db.all("SELECT id, name, config FROM notetypes") { (row) throws(SQLiteError) in
      let id: Int64 = try row[0]
      // NotetypeConfig's field 1 is its kind (1: cloze); a template's 1 and 2 are its
      // question and answer formats (Anki's protocol buffers).
      let kind = Protobuf.varint(1, in: (try row[2] as Blob).bytes) ?? 0
      let first = templates.first { $0.id == id }?.config ?? []
      return (
        id,
        AnkiNotes.NoteType(
          name: try row[1], isCloze: kind == 1, fields: fields.filter { $0.id == id }.map(\.name),
          question: Protobuf.string(1, in: first) ?? "", answer: Protobuf.string(2, in: first) ?? "")
      )
    }
  }

  /// Deck names, their levels joined by `::` as Anki shows them (kept with 0x1F between).
  static func deckNames(in db: Database) throws(SQLiteError) -> [(id: Int64, name: String)] {
    try db.all("SELECT id, name FROM decks") { (row) throws(SQLiteError) in
      let name = (try row[1] as String).split(separator: "\u{1F}", omittingEmptySubsequences: false).joined(
        separator: "::")
      return (try row[0] as Int64, name)
    }
  }

  // MARK: Older collections: note types and decks as JSON

  static func legacyJSON(_ column: String, in db: Database) throws(SQLiteError) -> JSON {
    let text = try db.value("SELECT \(column) FROM col LIMIT 1", as: String.self) ?? "{}"
    guard case .success(let json) = JSON.parse(text, maxValues: 5_000_000) else {
      throw SQLiteError(code: .corrupt, message: "its \(column) are not JSON")
    }
    return json
  }

  static func legacyNoteTypes(in db: Database) throws(SQLiteError) -> [(id: Int64, type: AnkiNotes.NoteType)] {
    guard case .object(let members) = try legacyJSON("models", in: db) else { return [] }
    return members.compactMap { member -> (id: Int64, type: AnkiNotes.NoteType)? in
      guard let id = Int64(member.key) else { return nil }
      let model = member.value
      let byOrder = { (list: JSON?) -> [JSON] in
        guard case .array(let values) = list else { return [] }
        return values.map(\.value).sorted { ($0["ord"]?.integer ?? 0) < ($1["ord"]?.integer ?? 0) }
      }
      let template = byOrder(model["tmpls"]).first
      return (
        id,
        AnkiNotes.NoteType(
          name: model["name"]?.string ?? "", isCloze: model["type"]?.integer == 1,
          fields: byOrder(model["flds"]).map { $0["name"]?.string ?? "" },
          question: template?["qfmt"]?.string ?? "", answer: template?["afmt"]?.string ?? "")
      )
    }
  }

  static func legacyDeckNames(in db: Database) throws(SQLiteError) -> [(id: Int64, name: String)] {
    guard case .object(let members) = try legacyJSON("decks", in: db) else { return [] }
    return members.compactMap { member in
      guard let id = Int64(member.key), let name = member.value["name"]?.string else { return nil }
      return (id, name)
    }
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
