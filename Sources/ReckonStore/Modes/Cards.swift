import ReckonCore
import ReckonSession
import SQLite

/// The flashcard decks' tables: a row a card, keyed by its profile, deck, note, ordinal and
/// direction, with its text and its FSRS schedule; a row a review.
public enum CardTables: ModeTables {
  public static let name = "cards"
  public static let migrations: [Migrator.Migration] = [
    .init("v1: cards and reviews") { (db) throws(SQLiteError) in
      try db.execute(
        """
        CREATE TABLE "deckCard" ("profile" TEXT NOT NULL REFERENCES "profile"("name") ON DELETE CASCADE, \
        "deck" TEXT NOT NULL, "note" TEXT NOT NULL, "ordinal" INTEGER NOT NULL, "reverse" BOOLEAN NOT NULL, \
        "question" TEXT NOT NULL, "answer" TEXT NOT NULL, "tags" TEXT NOT NULL, \
        "phase" INTEGER NOT NULL, "step" INTEGER, "stability" REAL, "difficulty" REAL, "due" INTEGER NOT NULL, \
        "lastReview" INTEGER, "reviews" INTEGER NOT NULL, "lapses" INTEGER NOT NULL, "addedAt" INTEGER NOT NULL, \
        PRIMARY KEY ("profile", "deck", "note", "ordinal", "reverse"));
        CREATE INDEX "deckCard_by_due" ON "deckCard"("profile", "deck", "due");
        CREATE TABLE "deckReview" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, \
        "profile" TEXT NOT NULL REFERENCES "profile"("name") ON DELETE CASCADE, "deck" TEXT NOT NULL, \
        "note" TEXT NOT NULL, "ordinal" INTEGER NOT NULL, "reverse" BOOLEAN NOT NULL, "rating" INTEGER NOT NULL, \
        "at" INTEGER NOT NULL, "milliseconds" INTEGER NOT NULL, "stabilityBefore" REAL, "difficultyBefore" REAL, \
        "undone" BOOLEAN NOT NULL DEFAULT 0);
        CREATE INDEX "deckReview_by_card" ON "deckReview"("profile", "deck", "note", "ordinal", "reverse", "at");
        """)
    },
    .init("v2: a cloze card's note text") { (db) throws(SQLiteError) in
      try db.execute(#"ALTER TABLE "deckCard" ADD COLUMN "cloze" TEXT"#)
    },
    .init("v3: a deck's fitted FSRS weights") { (db) throws(SQLiteError) in
      try db.execute(
        """
        CREATE TABLE "deckWeights" ("profile" TEXT NOT NULL REFERENCES "profile"("name") ON DELETE CASCADE, \
        "deck" TEXT NOT NULL, "weights" TEXT NOT NULL, "reviews" INTEGER NOT NULL, "logLoss" REAL NOT NULL, \
        "at" INTEGER NOT NULL, PRIMARY KEY ("profile", "deck"))
        """)
    },
  ]
  public static let rowNames = [
    (table: "deckCard", one: "flashcard", many: "flashcards"),
    (table: "deckReview", one: "flashcard review", many: "flashcard reviews"),
    (table: "deckWeights", one: "deck's FSRS weights", many: "decks' FSRS weights"),
  ]

  static let scheduleColumns = "phase, step, stability, difficulty, due, lastReview, reviews, lapses"

  static func schedule(_ row: Row, from i: Int) throws(SQLiteError) -> Decks.Schedule {
    Decks.Schedule(
      phase: try row[i], step: try row[i + 1], stability: try row[i + 2], difficulty: try row[i + 3],
      due: try row[i + 4], lastReview: try row[i + 5], reviews: try row[i + 6], lapses: try row[i + 7])
  }

  static func save(_ s: Decks.Schedule, _ profile: String, _ key: Decks.Key, in db: Database) throws(SQLiteError) {
    try db.run(
      """
      UPDATE deckCard SET phase = ?, step = ?, stability = ?, difficulty = ?, due = ?, lastReview = ?, reviews = ?,
        lapses = ?
      WHERE profile = ? AND deck = ? AND note = ? AND ordinal = ? AND reverse = ?
      """, s.phase, s.step, s.stability, s.difficulty, s.due, s.lastReview, s.reviews, s.lapses, profile, key.deck,
      key.note, key.ordinal, key.reverse)
  }
}

extension Decks.Load: SQLWrite {
  public typealias Tables = CardTables

  public func run(in db: Database) throws(SQLiteError) -> Decks.LoadCounts {
    try Tables.ensureProfile(profile, at: at, in: db)
    var counts = Decks.LoadCounts()
    for (index, card) in cards.enumerated() {
      if index % 1000 == 999, interruption.isRequested {
        throw SQLiteError(code: .interrupt, message: "interrupted")
      }
      let k = card.key
      let saved = try db.first(
        """
        SELECT question, answer, tags, cloze FROM deckCard
        WHERE profile = ? AND deck = ? AND note = ? AND ordinal = ? AND reverse = ?
        """, profile, k.deck, k.note, k.ordinal, k.reverse
      ) { (row) throws(SQLiteError) in
        (try row[0] as String, try row[1] as String, try row[2] as String, try row[3] as String?)
      }
      if let saved {
        if saved == (card.question, card.answer, card.tags, card.cloze) {
          counts.unchanged += 1
        } else {
          try db.run(
            """
            UPDATE deckCard SET question = ?, answer = ?, tags = ?, cloze = ?
            WHERE profile = ? AND deck = ? AND note = ? AND ordinal = ? AND reverse = ?
            """, card.question, card.answer, card.tags, card.cloze, profile, k.deck, k.note, k.ordinal, k.reverse)
          counts.updated += 1
        }
        continue
      }
      let s = card.schedule
      try db.run(
        """
        INSERT INTO deckCard (profile, deck, note, ordinal, reverse, question, answer, tags, \(CardTables.scheduleColumns), addedAt, cloze)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """, profile, k.deck, k.note, k.ordinal, k.reverse, card.question, card.answer, card.tags, s.phase, s.step,
        s.stability, s.difficulty, s.due, s.lastReview, s.reviews, s.lapses, at, card.cloze)
      counts.added += 1
    }
    return counts
  }
}

extension Decks.All: SQLRead {
  public typealias Tables = CardTables

  public func run(in db: Database) throws(SQLiteError) -> [Decks.Summary] {
    try db.all(
      """
      SELECT deck, count(*), sum(reviews = 0), sum(reviews > 0 AND phase != 2), sum(phase = 2 AND due < ?)
      FROM deckCard WHERE profile = ? AND NOT reverse GROUP BY deck ORDER BY deck COLLATE NOCASE
      """, dueBefore, profile
    ) { (row) throws(SQLiteError) in
      Decks.Summary(deck: try row[0], cards: try row[1], new: try row[2], learning: try row[3], due: try row[4])
    }
  }
}

extension Decks.Cards: SQLRead {
  public typealias Tables = CardTables

  public func run(in db: Database) throws(SQLiteError) -> [Decks.Card] {
    try db.all(
      """
      SELECT note, ordinal, question, answer, tags, \(CardTables.scheduleColumns), cloze FROM deckCard
      WHERE profile = ? AND deck = ? AND reverse = ? ORDER BY addedAt, rowid
      """, profile, deck, reverse
    ) { (row) throws(SQLiteError) in
      Decks.Card(
        key: Decks.Key(deck: deck, note: try row[0], ordinal: try row[1], reverse: reverse), question: try row[2],
        answer: try row[3], tags: try row[4], schedule: try CardTables.schedule(row, from: 5), cloze: try row[13])
    }
  }
}

extension Decks.Review: SQLWrite {
  public typealias Tables = CardTables

  public func run(in db: Database) throws(SQLiteError) {
    try Tables.ensureProfile(profile, at: at, in: db)
    try db.run(
      """
      INSERT INTO deckReview (profile, deck, note, ordinal, reverse, rating, at, milliseconds, stabilityBefore,
        difficultyBefore)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """, profile, key.deck, key.note, key.ordinal, key.reverse, rating, at, milliseconds, before.stability,
      before.difficulty)
    try CardTables.save(after, profile, key, in: db)
  }
}

extension Decks.Undo: SQLWrite {
  public typealias Tables = CardTables

  public func run(in db: Database) throws(SQLiteError) {
    try db.run(
      """
      UPDATE deckReview SET undone = 1
      WHERE profile = ? AND deck = ? AND note = ? AND ordinal = ? AND reverse = ? AND at = ?
      """, profile, key.deck, key.note, key.ordinal, key.reverse, at)
    try CardTables.save(before, profile, key, in: db)
  }
}

extension Decks.Delete: SQLWrite {
  public typealias Tables = CardTables

  public func run(in db: Database) throws(SQLiteError) -> (cards: Int, reviews: Int) {
    // The reviews given and not taken back, as the deck's history counts them.
    let reviews =
      try db.value("SELECT count(*) FROM deckReview WHERE profile = ? AND deck = ? AND NOT undone", profile, deck) ?? 0
    let cards = try db.value("SELECT count(*) FROM deckCard WHERE profile = ? AND deck = ?", profile, deck) ?? 0
    try db.run("DELETE FROM deckReview WHERE profile = ? AND deck = ?", profile, deck)
    try db.run("DELETE FROM deckWeights WHERE profile = ? AND deck = ?", profile, deck)
    try db.run("DELETE FROM deckCard WHERE profile = ? AND deck = ?", profile, deck)
    return (cards, reviews)
  }
}

extension Decks.ReviewLog: SQLRead {
  public typealias Tables = CardTables

  public func run(in db: Database) throws(SQLiteError) -> [Decks.LoggedReview] {
    try db.all(
      """
      SELECT deck, note, ordinal, reverse, rating, at, milliseconds FROM deckReview
      WHERE profile = ? AND NOT undone AND (?2 IS NULL OR deck = ?2) ORDER BY at, id
      """, profile, deck
    ) { (row) throws(SQLiteError) in
      Decks.LoggedReview(
        key: Decks.Key(deck: try row[0], note: try row[1], ordinal: try row[2], reverse: try row[3]),
        rating: try row[4], at: try row[5], milliseconds: try row[6])
    }
  }
}

extension Decks.Weights: SQLRead {
  public typealias Tables = CardTables

  /// The weights kept as text, as they read (a word that is not a number as NaN): the
  /// session checks them (`Decks.problem(withWeights:)`) and says when it cannot use them.
  public func run(in db: Database) throws(SQLiteError) -> [Double]? {
    guard
      let text = try db.value(
        "SELECT weights FROM deckWeights WHERE profile = ? AND deck = ?", profile, deck, as: String.self)
    else { return nil }
    return text.split(separator: " ").prefix(64).map { Double($0) ?? .nan }
  }
}

extension Decks.SaveWeights: SQLWrite {
  public typealias Tables = CardTables

  public func run(in db: Database) throws(SQLiteError) {
    try Tables.ensureProfile(profile, at: at, in: db)
    try db.run(
      """
      INSERT INTO deckWeights (profile, deck, weights, reviews, logLoss, at) VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (profile, deck) DO UPDATE SET weights = excluded.weights, reviews = excluded.reviews,
        logLoss = excluded.logLoss, at = excluded.at
      """, profile, deck, weights.map { "\($0)" }.joined(separator: " "), reviews, logLoss, at)
  }
}
