import Foundation
import Synchronization
import Testing

@testable import ReckonCore
@testable import ReckonSession
@testable import ReckonStore

/// Anki packages and text decks made to hang or flood Reckon (issue 38), written by
/// scripts/anki-hostile.py with Python's own sqlite3 and zipfile: each is refused with the
/// reason, or read within its bounds (rows and bytes), and Ctrl-C stops a read.
@Suite struct HostileDeckTests {
  /// Says "stop" from the `after`-th question on, and counts the questions.
  final class Countdown: Sendable {
    let asked = Atomic<Int>(0)
    let after: Int
    init(after: Int = .max) { self.after = after }
    var interruption: Interruption {
      Interruption { [self] in asked.add(1, ordering: .relaxed).newValue > after }
    }
    var count: Int { asked.load(ordering: .relaxed) }
  }

  /// The hostile files, written once per run: at the issue's sizes, and `--small` (the
  /// fuzzer's seeds).
  static let full: Result<URL, any Error> = Result { try write(small: false) }
  static let small: Result<URL, any Error> = Result { try write(small: true) }

  static func write(small: Bool) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "reckon-hostile-\(small ? "small" : "full")-\(getpid())")
    try? FileManager.default.removeItem(at: folder)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments =
      ["python3", FSRSTests.root.appendingPathComponent("scripts/anki-hostile.py").path]
      + (small ? ["--small"] : []) + [folder.path]
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
    return folder
  }

  static func bytes(_ name: String, small: Bool = false) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: (small ? Self.small : Self.full).get().appendingPathComponent(name)))
  }

  static func read(_ name: String, small: Bool = false, _ countdown: Countdown = Countdown()) throws -> Result<
    DeckText, FileError
  > {
    AnkiPackage().deck(fromPackage: try bytes(name, small: small), interruption: countdown.interruption)
  }

  /// Why a read failed; nil when it did not.
  static func failure(_ result: Result<DeckText, FileError>) -> FileError? {
    if case .failure(let error) = result { return error }
    return nil
  }

  static func session(_ files: [String: [UInt8]], store: SQLiteStore = .inMemory()) -> Session {
    var session = testSession(clock: ManualClock(), store: store)
    session.state.files = MemoryFiles(files)
    session.state.packages = AnkiPackage()
    return session
  }

  // MARK: The collection's schema

  /// A view (an endless recursive query, a string doubled 27 times), a trigger or a generated
  /// column where Anki writes a table: refused with the reason before any query of the
  /// notes (the schema's few rows take a handful of SQLite's steps).
  @Test(arguments: [
    ("endless-notes.apkg", "its notes is a view, not a table (Anki writes tables)"),
    ("endless-cards.apkg", "its cards is a view, not a table (Anki writes tables)"),
    ("endless-modern.apkg", "its notetypes is a view, not a table (Anki writes tables)"),
    ("doubling.apkg", "its notes is a view, not a table (Anki writes tables)"),
    ("trigger.apkg", "it has a trigger on notes, notes_touched (Anki writes none)"),
    ("generated.apkg", "its notes table has a column worked out as it is read (a generated column; Anki writes none)"),
  ])
  func tablesThatAreNotTablesAreRefused(_ name: String, _ reason: String) throws {
    for small in [true, false] {
      let countdown = Countdown()
      #expect(
        Self.failure(try Self.read(name, small: small, countdown))
          == FileError("its collection.anki2 cannot be read: \(reason)"), "\(name)")
      #expect(countdown.count < 5, "\(name): \(countdown.count) thousand steps")
    }
  }

  /// A collection without its index on cards.nid (3.9 MB, 11,000 notes, 22,000 cards) is read
  /// in one pass of each table: every note, with its deck, in at most 60 of SQLite's steps a
  /// row (it took a search of every card for each note: over 100 s).
  @Test func aCollectionWithoutItsIndexIsReadInOnePass() throws {
    let countdown = Countdown()
    let deck = try Self.read("no-index.apkg", countdown).get()
    #expect(deck.notes.count == 11_000)
    #expect(deck.notes.allSatisfy { $0.deck == "Default" })
    #expect(deck.notes[4].front.hasPrefix("front 4 ") && deck.notes[4].back.hasPrefix("back 4 "))
    // (Each question stands for a thousand steps; the notes themselves add one each.)
    #expect(countdown.count - 11_000 <= 33_000 * 60 / 1000, "\(countdown.count)")
  }

  // MARK: Zip bombs

  /// A 250 KB package whose collection (one note, then zeros SQLite never reads) inflates to
  /// 250 MiB is read where it is inflated: its note, and no copy (bench/hostile measures the
  /// memory: 265 MB at peak, where two copies took 520 MB).
  @Test func aZipBombsNoteIsRead() throws {
    for small in [true, false] {
      let deck = try Self.read("zip-bomb.apkg", small: small).get()
      #expect(deck.notes.map(\.front) == ["Spain"] && deck.notes.map(\.back) == ["Madrid"], "small: \(small)")
    }
  }

  /// One whose zip headers say the collection is 4 KB is refused once 4 KB are inflated, not
  /// after 250 MiB (the check sum would have found it then).
  @Test func aZipBombThatUnderstatesItsSizeIsRefusedAtOnce() throws {
    for small in [true, false] {
      let countdown = Countdown()
      #expect(
        Self.failure(try Self.read("zip-bomb-lying.apkg", small: small, countdown))
          == FileError("collection.anki2 is damaged (it is longer than the archive's directory says)"))
      #expect(countdown.count <= 2, "\(countdown.count) questions")
    }
  }

  /// Ctrl-C while a collection is inflated is heard within a mebibyte of it: the 250 MiB one
  /// asks after each, and stops at the first that hears it.
  @Test func ctrlCStopsTheInflating() throws {
    for after in [0, 3, 100] {
      let countdown = Countdown(after: after)
      #expect(Self.failure(try Self.read("zip-bomb.apkg", countdown)) == .interrupted, "after \(after)")
      #expect(countdown.count == after + 1, "after \(after)")
    }
  }

  // MARK: Ctrl-C

  /// Ctrl-C stops a read wherever it is, in SQLite's steps or in the filling in of the
  /// notes, at the first question that hears it; nothing is read.
  @Test func ctrlCStopsTheReadAtOnce() throws {
    let all = Countdown()
    _ = try Self.read("no-index.apkg", all).get()
    for after in [0, 1, 30, all.count - 11_000 + 5, all.count - 1] {
      let countdown = Countdown(after: after)
      #expect(Self.failure(try Self.read("no-index.apkg", countdown)) == .interrupted, "after \(after)")
      #expect(countdown.count == after + 1, "after \(after)")
    }
  }

  /// `cards load` stopped by Ctrl-C (the session's interruption) loads nothing, from a package
  /// or a text deck, and says so: while the package is read, while the cards are made (a
  /// question a note), and while they are saved (a question every thousand cards).
  @Test func aLoadStoppedByCtrlCSavesNothing() throws {
    let text = "#separator:tab\n" + (1...1_500).map { "front \($0)\tback \($0)" }.joined(separator: "\n")
    let store = SQLiteStore.inMemory()
    var session = Self.session(
      ["no-index.apkg": try Self.bytes("no-index.apkg"), "deck.txt": Array(text.utf8)], store: store)
    // (1,500 notes make 3,000 cards: the save asks after its 1,000th, and once it has
    // failed the command asks again why: to say so.)
    for (name, after, asked) in [
      ("no-index.apkg", 10, 11), ("deck.txt", 0, 1), ("deck.txt", 150, 151), ("deck.txt", 1_500, 1_502),
    ] {
      let countdown = Countdown(after: after)
      session.state.interruption = countdown.interruption
      #expect(
        CardsTests.errors(session.handle("cards load \(name)")) == ["nothing loaded from \(name): interrupted (Ctrl-C)"]
      )
      #expect(countdown.count == asked)
      #expect(try store.read(Decks.All(profile: "ada", dueBefore: 0)).isEmpty)
    }
    session.state.interruption = .never
    #expect(CardsTests.text(session.handle("cards load deck.txt")).last?.hasPrefix("Loaded deck") == true)
    #expect(try store.read(Decks.Cards(profile: "ada", deck: "deck", reverse: false)).count == 1_500)
  }

  // MARK: Templates

  /// A template that repeats a field makes at most `maxSideHTML` of HTML, whatever the field
  /// and the count: past it the note is left out and named; a note type of more than
  /// `maxTags` replacements is not filled in at all. The other notes are read.
  @Test func templateBombsAreCutAndTheNoteNamed() throws {
    let bomb = AnkiNotes.NoteType(
      name: "Bomb", isCloze: false, fields: ["Front", "Back"],
      question: String(repeating: "{{Front}}", count: 10_000), answer: String(repeating: "{{FrontSide}}", count: 300))
    let tokens = try #require(AnkiNotes.tokens(of: bomb.question, fields: bomb.fields))
    var values = AnkiNotes.Values(fields: [String(repeating: "x", count: 4_000), "back"], tags: "", deck: "", type: "")
    var out = AnkiNotes.Rendered()
    AnkiNotes.render(tokens, 0..<tokens.count, &values, depth: 0, into: &out)
    #expect(out.isCut)
    #expect(out.html.utf8.count <= AnkiNotes.maxSideHTML && out.html.utf8.count > AnkiNotes.maxSideHTML - 4_000)
    #expect(AnkiNotes.tokens(of: String(repeating: "{{Front}}", count: 10_001), fields: ["Front"]) == nil)

    let basic = AnkiNotes.NoteType(
      name: "Basic", isCloze: false, fields: ["Front", "Back"], question: "{{Front}}",
      answer: "{{FrontSide}}<hr id=answer>{{Back}}")
    let many = AnkiNotes.NoteType(
      name: "Many", isCloze: false, fields: ["Front"],
      question: String(
        repeating: "{{Front}}", count: 10_001), answer: "")
    let notes = [
      AnkiNotes.Note(id: 1, guid: "a", type: 1, fields: ["Spain", "Madrid"], tags: [], deck: nil),
      AnkiNotes.Note(id: 2, guid: "b", type: 2, fields: ["boom", "back"], tags: [], deck: nil),
      AnkiNotes.Note(id: 3, guid: "c", type: 3, fields: ["many"], tags: [], deck: nil),
      AnkiNotes.Note(id: 4, guid: "d", type: 1, fields: ["France", "Paris"], tags: [], deck: nil),
    ]
    let deck = try #require(AnkiNotes.deck(notes, types: [1: basic, 2: bomb, 3: many]))
    #expect(deck.notes.map(\.front) == ["Spain", "France"])
    #expect(deck.notes.map(\.back) == ["Madrid", "Paris"])
    #expect(
      deck.skipped == [
        .init(
          line: 2,
          reason: "its back is more than 256 KB of HTML once its note type's template is filled in (a card's side "
            + "holds at most 64 KB of text)"),
        .init(line: 3, reason: "its note type, Many, has a template of more than 10,000 replacements"),
      ])
    // The packages of the issue: a 148 KB bomb and a 66 KB one, refused with their note.
    for name in ["template-bomb.apkg", "template-bomb-66k.apkg"] {
      #expect(
        Self.failure(try Self.read(name))
          == FileError(
            "it holds no card that can be read as an Anki package (note 1600000000000: its front is more than "
              + "256 KB of HTML once its note type's template is filled in (a card's side holds at most 64 KB of "
              + "text))"), "\(name)")
    }
    // 9,000 sections never closed: the first hides the rest, in one pass.
    #expect(
      Self.failure(try Self.read("sections.apkg"))
        == FileError("it holds no card that can be read as an Anki package (note 1600000000000: its front is empty)"))
  }

  /// The templates of a whole deck make at most `maxWork` (256 MiB by default): the notes
  /// after are left out, the first of them named.
  @Test func aDecksTemplatesAreBoundedInAll() throws {
    let type = AnkiNotes.NoteType(
      name: "Long", isCloze: false, fields: ["Front", "Back"], question: String(repeating: "{{Front}}", count: 20),
      answer: "{{Back}}")
    let field = "<b>note</b>" + String(repeating: "<i></i>", count: 100)
    let notes = (1...100).map {
      AnkiNotes.Note(id: Int64($0), guid: "g\($0)", type: 7, fields: [field, "back"], tags: [], deck: nil)
    }
    // A note's work: its field 20 times and "back", and 64 for each replacement.
    let work = 20 * (field.utf8.count + 64) + 4 + 64
    let deck = try #require(AnkiNotes.deck(notes, types: [7: type], maxWork: 200_000))
    // Notes are filled in while the work before them is within the bound.
    let kept = 200_000 / work + 1
    #expect(deck.notes.count == kept)
    #expect(
      deck.skipped == [
        .init(
          line: kept + 1,
          reason: "the notes before it make more than 195 KB of HTML once their templates are filled in: the rest "
            + "are left out")
      ])
  }

  // MARK: Cloze notes and sides

  /// A note's cloze cards take at most `maxNoteBytes` together: the first that fit are made,
  /// in order, and the rest counted; `cards load` names the note and saves only those.
  @Test func clozeCardsAreBoundedPerNote() throws {
    let deck = try DeckText.read(String(decoding: try Self.bytes("cloze-500-60k.txt"), as: UTF8.self), name: "c.txt")
      .get()
    let note = try #require(deck.notes.first)
    let made = DeckText.cards(of: note)
    let size = { (card: DeckText.Card) in card.question.utf8.count + card.answer.utf8.count + note.front.utf8.count }
    let bytes = made.cards.map(size).reduce(0, +)
    #expect(bytes <= DeckText.maxNoteBytes)
    #expect(bytes + size(made.cards[0]) > DeckText.maxNoteBytes, "as many as fit")
    #expect(made.cards.map(\.ordinal) == Array(1...made.cards.count))
    #expect(made.leftOut == 500 - made.cards.count && made.cards.count > 10)

    let store = SQLiteStore.inMemory()
    var session = Self.session(["cloze.txt": try Self.bytes("cloze-500-60k.txt")], store: store)
    let reply = CardsTests.text(session.handle("cards load cloze.txt"))
    let kept = made.cards.count
    #expect(
      reply == [
        "Skipped 1 line:",
        "  line 4: \(500 - kept) of its 500 cloze cards are left out: a note's cards take at most 2 MB",
        "Loaded cloze (Anki's plain text): 1 note; cards \(kept) added, 0 updated, 0 as they were (each note has a "
          + "card each way but clozes). Review with: cards cloze",
      ])
    let cards = try store.read(Decks.Cards(profile: "ada", deck: "cloze", reverse: false))
    #expect(cards.count == kept)
    #expect(cards.map(\.storedBytes).reduce(0, +) <= DeckText.maxNoteBytes + kept * 200)
  }

  /// A note whose side is more than `maxSideBytes` is left out, with its line: the issue's
  /// 200 KB and 4 MB cloze notes, a long back among good notes, an id or deck name of more
  /// than 1 KB.
  @Test func sidesOverTheLimitAreLeftOut() throws {
    for (name, size) in [("cloze-500.txt", "195 KB"), ("cloze-500-4mb.txt", "3.8 MB")] {
      #expect(
        Self.failure(DeckText.read(String(decoding: try Self.bytes(name), as: UTF8.self), name: name))
          == FileError(
            "it holds no card that can be read as Anki's plain text (line 4: its text is \(size): a card's side "
              + "holds at most 64 KB)"))
    }
    let long = String(repeating: "y", count: 70_000)
    let name = String(repeating: "n", count: 1_025)
    let text =
      "#separator:tab\n#guid column:1\n#deck column:4\ng1\tSpain\tMadrid\t\ng2\tFrance\t\(long)\t\n"
      + "\(name)\tItaly\tRome\t\ng4\tPeru\tLima\t\(name)\ng5\tChile\tSantiago\tSouth\n"
    let deck = try DeckText.read(text, name: "deck.txt").get()
    #expect(deck.notes.map(\.front) == ["Spain", "Chile"])
    #expect(
      deck.skipped == [
        .init(line: 5, reason: "its back is 68 KB: a card's side holds at most 64 KB"),
        .init(line: 6, reason: "its id (guid) is longer than 1,024 bytes"),
        .init(line: 7, reason: "its deck's name is longer than 1,024 bytes"),
      ])
  }

  /// Loading a deck adds at most about `maxDeckBytes` to the profile: 40 notes of 40 KB with
  /// 500 clozes each would make 80 MB of cards (each note's cut to 2 MB); the notes past
  /// 64 MB are left out, the first of them named, and the file grows by about that.
  @Test func aDeckIsBoundedInWhatItAddsToTheProfile() throws {
    let clozes = (1...500).map { "{{c\($0)::w\($0)}}" }.joined(separator: " ")
    let filler = String(repeating: "lorem ipsum ", count: (40_000 - clozes.utf8.count) / 12)
    let text =
      "#separator:tab\n#notetype:Cloze\n"
      + (1...40).map { "note \($0) \(filler)\(clozes)\t" }.joined(separator: "\n") + "\n"
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reckon-deck-bound-\(getpid())").path
    try? FileManager.default.removeItem(atPath: folder)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let store = SQLiteStore(path: folder + "/reckon.sqlite")
    var session = Self.session(["big.txt": Array(text.utf8)], store: store)
    _ = session.handle("set digits 12")  // (the file is made)
    let before = Self.size(folder + "/reckon.sqlite")
    let reply = CardsTests.text(session.handle("cards load big.txt"))
    let cards = try store.read(Decks.Cards(profile: "ada", deck: "big", reverse: false))
    let stored = cards.map { $0.storedBytes }.reduce(0, +)
    #expect(stored <= DeckText.maxDeckBytes)
    let notes = Set(cards.map { $0.key.note }).count
    #expect(notes < 40 && notes > 20)
    #expect(
      reply.contains(
        "  line \(notes + 3): a deck's cards take at most 64 MB in the profile: the notes from here on are left out (\(40 - notes) notes)"
      ), "\(reply)")
    #expect(
      reply.last?.hasPrefix("Loaded big (Anki's plain text): \(notes) notes; cards \(cards.count) added") == true,
      "\(reply)")
    // The database grows by what the cards take and its pages' overhead; the -wal holds the
    // load's pages until the next write starts it again and cuts it to 4 MiB
    // (journal_size_limit).
    let bound = DeckText.maxDeckBytes + DeckText.maxDeckBytes / 8
    #expect(Self.size(folder + "/reckon.sqlite") - before <= bound)
    #expect(Self.size(folder + "/reckon.sqlite-wal") <= bound)
    _ = session.handle("set digits 13")
    #expect(Self.size(folder + "/reckon.sqlite") - before <= bound)
    #expect(Self.size(folder + "/reckon.sqlite-wal") <= 4 << 20)
  }

  static func size(_ path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
  }

  // MARK: A full disk

  /// A load that cannot be saved (a full disk) loads nothing and says so; it is not kept to
  /// be tried again (it would stop every save after it, and load what the user was told was
  /// not): once writes work, the next save is the next one's alone.
  @Test func aLoadOnAFullDiskIsNotKept() throws {
    let store = SQLiteStore.inMemory()
    var session = Self.session(
      ["small.csv": Array("Spain,Madrid\n".utf8), "cloze.txt": try Self.bytes("cloze-500-60k.txt")], store: store)
    _ = session.handle("cards load small.csv")
    store.failWrites(with: StoreError("the disk is full"))
    #expect(
      CardsTests.errors(session.handle("cards load cloze.txt"))
        == ["nothing loaded from cloze.txt: the deck could not be saved (the disk is full)"])
    store.failWrites(with: nil)
    let set = session.handle("set digits 12")
    #expect(!CardsTests.text(set).contains { $0.contains("kept") }, "\(CardsTests.text(set))")
    #expect(try store.read(Decks.All(profile: "ada", dueBefore: 0)).map(\.deck) == ["small"])
  }
}
