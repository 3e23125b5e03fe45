import ReckonCore
import ReckonSession
import ReckonStore

/// The flashcard decks' readers on arbitrary bytes: the three text formats, and the Anki
/// package reader (zip, inflate, Zstandard, an SQLite collection read in memory).
enum DeckTargets {
  /// A deck file read as `name` says (its extension picks the format when its content does
  /// not: Anki's header lines are Anki's text whatever the name).
  static func text(_ body: [UInt8], name: String) {
    switch DeckText.read(String(decoding: body, as: UTF8.self), name: name) {
    case .success(let deck):
      let lines = ImportTargets.lineCount(body)
      require(!deck.notes.isEmpty, "a deck read with no notes")
      for skip in deck.skipped {
        require(skip.line >= 1 && skip.line <= lines, "skip at line \(skip.line) of \(lines)")
        require(!skip.reason.isEmpty, "a skip without a reason")
      }
      for note in deck.notes {
        require(note.line >= 1 && note.line <= lines, "a note at line \(note.line) of \(lines)")
        checkCards(of: note)
      }
    case .failure(let failure):
      require(!failure.message.isEmpty, "a failure without a message")
    }
  }

  /// A note kept has a front and at least one card, within the bounds: each side of at most
  /// `DeckText.maxSideBytes`, the cards together within `DeckText.maxNoteBytes`.
  static func checkCards(of note: DeckText.Note) {
    require(!note.front.isEmpty, "a note with an empty front")
    require(note.front.utf8.count <= DeckText.maxSideBytes, "a front of \(note.front.utf8.count) bytes")
    require(note.back.utf8.count <= DeckText.maxSideBytes, "a back of \(note.back.utf8.count) bytes")
    let made = DeckText.cards(of: note)
    require(!made.cards.isEmpty, "a note with no card")
    require(note.isCloze || made.cards.count == 1, "a basic note with \(made.cards.count) cards")
    let bytes = made.cards.reduce(0) {
      $0 + $1.question.utf8.count + $1.answer.utf8.count + (note.isCloze ? note.front.utf8.count : 0)
    }
    require(bytes <= DeckText.maxNoteBytes, "a note's cards take \(bytes) bytes")
    for card in made.cards {
      require(card.question.utf8.count <= DeckText.maxSideBytes, "a question of \(card.question.utf8.count) bytes")
    }
  }

  @Sendable static func ankiText(_ bytes: [UInt8]) { text(bytes, name: "deck.txt") }
  @Sendable static func csv(_ bytes: [UInt8]) { text(bytes, name: "deck.csv") }
  @Sendable static func markdown(_ bytes: [UInt8]) { text(bytes, name: "deck.md") }

  @Sendable static func package(_ bytes: [UInt8]) {
    switch AnkiPackage().deck(fromPackage: bytes, interruption: .never) {
    case .success(let deck):
      require(!deck.notes.isEmpty, "a package read with no notes")
      for note in deck.notes { checkCards(of: note) }
    case .failure(let failure):
      require(!failure.message.isEmpty, "a failure without a message")
    }
  }

  /// An Anki collection's SQLite file itself (what a package holds once unzipped): SQLite
  /// reading a hostile database, the queries of both schemas, the templates rendered.
  @Sendable static func collection(_ bytes: [UInt8]) {
    var collection = bytes
    switch AnkiPackage.deck(fromCollection: &collection, named: "collection.anki2") {
    case .success(let deck):
      require(!deck.notes.isEmpty, "a collection read with no notes")
      for note in deck.notes { checkCards(of: note) }
    case .failure(let failure):
      require(!failure.message.isEmpty, "a failure without a message")
    }
  }
}
