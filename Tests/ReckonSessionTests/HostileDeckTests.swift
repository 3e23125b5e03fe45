import Foundation
import Synchronization
import Testing

@testable import ReckonCore
@testable import ReckonSession
@testable import ReckonStore

/// Anki packages and text decks made to hang or flood Reckon (issue 38), written by
/// scripts/anki-hostile.py with Python's own sqlite3 and zipfile: each is refused with the
/// reason, or read within its bounds (rows and bytes), and Ctrl-C stops a load.
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

  // MARK: Ctrl-C

  /// `cards load` stopped by Ctrl-C (the session's interruption) loads nothing, and says so:
  /// while the cards are made (a question a note), and while they are saved (a question
  /// every thousand cards).
  @Test func aLoadStoppedByCtrlCSavesNothing() throws {
    let text = "#separator:tab\n" + (1...1_500).map { "front \($0)\tback \($0)" }.joined(separator: "\n")
    let store = SQLiteStore.inMemory()
    var session = Self.session(["deck.txt": Array(text.utf8)], store: store)
    // (1,500 notes make 3,000 cards: the save asks after its 1,000th, and once it has
    // failed the command asks again why: to say so.)
    for (name, after, asked) in [("deck.txt", 0, 1), ("deck.txt", 150, 151), ("deck.txt", 1_500, 1_502)] {
      let countdown = Countdown(after: after)
      session.state.interruption = countdown.interruption
      #expect(
        CardsTests.text(session.handle("cards load \(name)"))
          == ["\(name): interrupted (Ctrl-C): nothing of it was loaded"])
      #expect(countdown.count == asked)
      #expect(try store.read(Decks.All(profile: "ada", dueBefore: 0)).isEmpty)
    }
    session.state.interruption = .never
    #expect(CardsTests.text(session.handle("cards load deck.txt")).last?.hasPrefix("Loaded deck") == true)
    #expect(try store.read(Decks.Cards(profile: "ada", deck: "deck", reverse: false)).count == 1_500)
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
      CardsTests.text(session.handle("cards load cloze.txt"))
        == ["cloze.txt: the deck could not be saved (the disk is full); nothing of it was loaded"])
    store.failWrites(with: nil)
    let set = session.handle("set digits 12")
    #expect(!CardsTests.text(set).contains { $0.contains("kept") }, "\(CardsTests.text(set))")
    #expect(try store.read(Decks.All(profile: "ada", dueBefore: 0)).map(\.deck) == ["small"])
  }
}
