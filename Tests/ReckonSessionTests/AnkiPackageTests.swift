import Foundation
import Testing

@testable import ReckonSession
@testable import ReckonStore

/// Anki's packages and plain text as Anki's own tools write them (scripts/anki-fixtures.py,
/// run with the oracle venv's Python): an `.apkg` from genanki (the legacy collection.anki2),
/// and, where the `anki` package installs, Anki's exporter's `.apkg` in both forms
/// (collection.anki21b in Zstandard, collection.anki21) and its "Notes in Plain Text".
/// Each reads as exactly the notes put in, and a damaged package is refused with why.
@Suite struct AnkiPackageTests {
  struct Expected: Decodable {
    struct Note: Decodable {
      var guid: String
      var deck: String
      var front: String
      var back: String
      var cloze: Bool
    }
    var notes: [Note]
    var skipped: Int
  }

  /// The fixtures, made once per run into a temporary folder.
  static let fixtures: Result<(folder: URL, expected: [String: Expected]), any Error> = Result {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reckon-anki-\(getpid())")
    try? FileManager.default.removeItem(at: folder)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try FSRSTests.oraclePython())
    process.arguments = [FSRSTests.root.appendingPathComponent("scripts/anki-fixtures.py").path, folder.path]
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
    let data = try Data(contentsOf: folder.appendingPathComponent("expected.json"))
    return (folder, try JSONDecoder().decode([String: Expected].self, from: data))
  }

  static func read(_ name: String, in folder: URL) throws -> Result<DeckText, FileError> {
    let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
    return name.hasSuffix(".apkg")
      ? AnkiPackage().deck(fromPackage: bytes, interruption: .never)
      : DeckText.read(String(decoding: bytes, as: UTF8.self), name: name)
  }

  @Test func filesWrittenByAnkisToolsReadAsTheirNotes() throws {
    let (folder, expected) = try Self.fixtures.get()
    #expect(expected["genanki.apkg"] != nil)
    if expected["modern.apkg"] == nil {
      print("AnkiPackageTests: the anki package did not install; only genanki's package was read")
    }
    for (name, want) in expected.sorted(by: { $0.key < $1.key }) {
      let deck = try Self.read(name, in: folder).get()
      #expect(deck.notes.count == want.notes.count, "\(name)")
      #expect(deck.skipped.count == want.skipped, "\(name): \(deck.skipped)")
      #expect(deck.skipped.allSatisfy { $0.reason == "its back is empty" }, "\(name): \(deck.skipped)")
      for note in want.notes {
        let got = try #require(deck.notes.first { $0.guid == note.guid }, "\(name): \(note.guid)")
        #expect(got.front == note.front, "\(name)")
        #expect(got.back == note.back, "\(name)")
        #expect(got.isCloze == note.cloze, "\(name)")
        #expect(got.deck == note.deck, "\(name)")
      }
      let cards = deck.notes.flatMap { DeckText.cards(of: $0).cards }
      #expect(cards.count == want.notes.count + 1, "\(name): a card a note, two for the cloze note")
    }
  }

  /// A deck loaded from Anki's package and then from its plain-text export is the same deck:
  /// every card is found again, as it was.
  @Test func aPackageAndItsPlainTextAreTheSameDeck() throws {
    let (folder, expected) = try Self.fixtures.get()
    guard expected["modern.apkg"] != nil else { return }
    var files: [String: [UInt8]] = [:]
    for name in ["modern.apkg", "legacy.apkg", "notes.txt"] {
      files[name] = [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
    }
    var session = testSession(clock: ManualClock(), store: SQLiteStore.inMemory())
    session.state.files = MemoryFiles(files)
    session.state.packages = AnkiPackage()
    let first = CardsTests.text(session.handle("cards load modern.apkg"))
    #expect(first.first == "Skipped 1 note:", "\(first)")
    #expect(
      first.last?.hasPrefix("Loaded Capitals, Languages::German (an Anki package): 7 notes; cards 14 added") == true,
      "\(first)")
    for name in ["legacy.apkg", "notes.txt"] {
      let again = CardsTests.text(session.handle("cards load \(name)"))
      #expect(
        again.last?.hasSuffix(
          "7 notes; cards 0 added, 0 updated, 14 as they were (each note has a card each way but clozes). Review with: cards Capitals"
        ) == true, "\(again)")
    }
  }

  /// What `cards export` prints, Anki imports (its own CSV importer, `anki` from PyPI): every
  /// note, of the right note type, in its deck, with its fields; the schedule lines are
  /// comments to it.
  @Test func ankiImportsAnExportedDeck() throws {
    let (folder, expected) = try Self.fixtures.get()
    guard expected["modern.apkg"] != nil else { return }
    var session = testSession(clock: ManualClock(), store: SQLiteStore.inMemory())
    session.state.files = MemoryFiles([
      "modern.apkg": [UInt8](try Data(contentsOf: folder.appendingPathComponent("modern.apkg"))),
      "odd.csv": Array("\"a, \"\"quoted\"\" front\",\"two\nlines\"\n#hash front,back\n".utf8),
    ])
    session.state.packages = AnkiPackage()
    _ = session.handle("cards load modern.apkg")
    _ = session.handle("cards load odd.csv")
    _ = session.handle("cards capitals")
    _ = session.handle("buenos aires")
    _ = session.handle("quit")
    var notes: [[String]] = []
    for deck in ["Capitals", "Languages::German", "odd"] {
      guard case .result(let text)? = session.handle("cards export \(deck)").outputs.first else {
        Issue.record("no export of \(deck)")
        return
      }
      let file = folder.appendingPathComponent("export-\(notes.count).txt")
      try text.write(to: file, atomically: true, encoding: .utf8)
      let process = Process()
      process.executableURL = URL(fileURLWithPath: try FSRSTests.oraclePython())
      process.arguments = ["-c", Self.ankiImport, file.path, folder.appendingPathComponent("import-\(deck)").path]
      let pipe = Pipe()
      process.standardOutput = pipe
      try process.run()
      let data = pipe.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      try #require(process.terminationStatus == 0)
      notes += try JSONDecoder().decode([[String]].self, from: data)
    }
    let capitals = try #require(expected["modern.apkg"]).notes
    #expect(notes.count == capitals.count + 2)
    for note in capitals {
      let kind = note.cloze ? "Cloze" : "Basic (and reversed card)"
      let fields = note.cloze ? [note.front, ""] : [note.front, note.back]
      #expect(notes.contains([kind, note.deck] + fields), "\(note.front)")
    }
    #expect(notes.contains(["Basic (and reversed card)", "odd", "a, \"quoted\" front", "two\nlines"]))
    #expect(notes.contains(["Basic (and reversed card)", "odd", "#hash front", "back"]))
  }

  /// Imports a text file into a new collection with Anki's own importer and prints each
  /// note: [note type, deck, field, …], each field as the text it shows (Anki keeps plain
  /// text as HTML: `&amp;` for &, `<br>` for a line break).
  static let ankiImport = #"""
    import html, json, os, sys
    from anki.collection import Collection
    from anki.import_export_pb2 import ImportCsvRequest
    os.makedirs(sys.argv[2], exist_ok=True)
    col = Collection(os.path.join(sys.argv[2], "collection.anki2"))
    metadata = col.get_csv_metadata(path=sys.argv[1], delimiter=None)
    col.import_csv(ImportCsvRequest(path=sys.argv[1], metadata=metadata))
    out = []
    for nid in col.find_notes(""):
        note = col.get_note(nid)
        deck = col.decks.name(note.cards()[0].did)
        out.append([note.note_type()["name"], deck] + [html.unescape(f.replace("<br>", "\n")) for f in note.fields])
    print(json.dumps(out))
    """#

  /// A package's damage is named, and nothing is read from it.
  @Test func damagedPackagesAreRefusedWithWhy() throws {
    let (folder, _) = try Self.fixtures.get()
    let good = [UInt8](try Data(contentsOf: folder.appendingPathComponent("genanki.apkg")))
    let reader = AnkiPackage()
    func refusal(_ bytes: [UInt8]) -> String? {
      if case .failure(let error) = reader.deck(fromPackage: bytes, interruption: .never) { return error.message }
      return nil
    }
    #expect(refusal([]) == "it is not a zip archive (too short)")
    #expect(refusal(Array("plain text, not a zip at all".utf8)) == "it is not a zip archive (no central directory)")
    #expect(refusal(Array(good.prefix(good.count / 2))) == "it is not a zip archive (no central directory)")
    // A byte of the deflated collection changed: zlib or the check sum says so.
    var flipped = good
    flipped[200] ^= 0x55
    let damaged = try #require(refusal(flipped))
    #expect(damaged.hasPrefix("collection.anki2 is damaged"), "\(damaged)")
    // A zip with no collection in it.
    let media = try #require(refusal(Self.zip(["media": Array("{}".utf8)])))
    #expect(media == "it is not an Anki package: it holds no collection.anki2 or collection.anki21b")
    let notSQLite = try #require(refusal(Self.zip(["collection.anki2": Array("hello".utf8)])))
    #expect(notSQLite == "its collection.anki2 is not an SQLite database")
    // A collection said to be larger than Reckon reads is refused before anything is
    // allocated for it (a zip bomb's directory tells its size).
    var bomb = Self.zip(["collection.anki2": Array("SQLite format 3\0".utf8)])
    let directory = try #require(
      (0..<bomb.count - 4).first { bomb[$0..<$0 + 4].elementsEqual([0x50, 0x4B, 0x01, 0x02]) })
    let size = 300 << 20
    for i in 0..<4 { bomb[directory + 24 + i] = UInt8(size >> (8 * i) & 0xFF) }
    #expect(refusal(bomb) == "collection.anki2 is 300 MiB, more than the 256 MiB Reckon reads")
  }

  /// CRC-32 eight bytes at a time is the standard's: the check value of "123456789", and a
  /// byte at a time (the definition) over every length up to 64 and a megabyte.
  @Test func crc32IsTheStandardOne() {
    func reference(_ bytes: [UInt8]) -> UInt32 {
      var crc: UInt32 = 0xFFFF_FFFF
      for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 != 0 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
      }
      return crc ^ 0xFFFF_FFFF
    }
    #expect(Zip.crc32(Array("123456789".utf8)) == 0xCBF4_3926)
    #expect(Zip.crc32([]) == 0)
    let bytes = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
    for length in Array(0...64) + [1 << 20] {
      #expect(Zip.crc32(Array(bytes.prefix(length))) == reference(Array(bytes.prefix(length))), "\(length)")
    }
  }

  /// A stored (uncompressed) zip of the given entries, written here byte by byte.
  static func zip(_ entries: [String: [UInt8]]) -> [UInt8] {
    func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
    func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(v >> (8 * $0) & 0xFF) } }
    var out: [UInt8] = []
    var directory: [UInt8] = []
    for (name, data) in entries.sorted(by: { $0.key < $1.key }) {
      let crc = Zip.crc32(data)
      let offset = UInt32(out.count)
      let common =
        le16(20) + le16(0) + le16(0) + le16(0) + le16(0) + le32(crc) + le32(UInt32(data.count))
        + le32(UInt32(data.count)) + le16(name.utf8.count) + le16(0)
      out += le32(0x0403_4B50) + common + Array(name.utf8) + data
      directory +=
        le32(0x0201_4B50) + le16(20) + common + le16(0) + le16(0) + le16(0) + le32(0) + le32(offset)
        + Array(name.utf8)
    }
    let start = UInt32(out.count)
    out += directory
    out +=
      le32(0x0605_4B50) + le16(0) + le16(0) + le16(entries.count) + le16(entries.count)
      + le32(UInt32(directory.count)) + le32(start) + le16(0)
    return out
  }
}
