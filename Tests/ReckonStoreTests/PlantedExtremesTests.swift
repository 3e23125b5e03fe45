import Foundation
import ReckonCore
import SQLite
import Testing

@testable import ReckonSession
@testable import ReckonStore

/// Every stored column of the exchange rates' setting and of the flashcards' tables, planted
/// in turn with each extreme value (Int64's least and greatest, ±1e308, ±infinity, NaN as the
/// text an edited file may hold and as SQLite stores a bound NaN, -1, a negative interval),
/// then every command that reads it, in the next session: none traps (a trap would end the
/// test run), none fails, and each value a command cannot use is said in a warning naming the
/// deck or the setting, while one it can use (or that nothing reads) is not.
@Suite struct PlantedExtremesTests {
  enum Value: String, CaseIterable, CustomStringConvertible {
    case int64Min, int64Max, big, negativeBig, infinity, negativeInfinity, nanText, null, minusOne

    /// As SQL writes it in an UPDATE.
    var sql: String {
      switch self {
      case .int64Min: "-9223372036854775808"
      case .int64Max: "9223372036854775807"
      case .big: "1e308"
      case .negativeBig: "-1e308"
      case .infinity: "9e999"
      case .negativeInfinity: "-9e999"
      case .nanText: "'NaN'"
      case .null: "?"  // Double.nan bound: SQLite keeps a NaN as NULL
      case .minusOne: "-1"
      }
    }

    /// As a word of the text the settings and the weights are kept in.
    var word: String {
      switch self {
      case .int64Min: "-9223372036854775808"
      case .int64Max: "9223372036854775807"
      case .big: "1e308"
      case .negativeBig: "-1e308"
      case .infinity: "inf"
      case .negativeInfinity: "-inf"
      case .nanText: "NaN"
      case .null: ""
      case .minusOne: "-1"
      }
    }

    var description: String { rawValue }
  }

  /// A stored column, and the values planted there that a command should warn about (the
  /// others it can use, or nothing reads them: a key, a time never shown).
  struct Column: CustomTestStringConvertible, Sendable {
    var table: String
    var name: String
    var warnsAbout: Set<String>
    var testDescription: String { "\(table).\(name)" }

    init(_ table: String, _ name: String, warnsAboutAllBut except: [Value]) {
      self.table = table
      self.name = name
      warnsAbout = Set(Value.allCases.filter { !except.contains($0) }.map(\.rawValue))
    }
  }

  static let all = Value.allCases
  static let columns: [Column] = [
    // The card planted is in review: phase 2, no step, a stability and difficulty, due and last
    // reviewed, one review. NULL goes into a NOT NULL column nowhere (SQLite refuses it).
    Column("deckCard", "ordinal", warnsAboutAllBut: all),
    Column("deckCard", "reverse", warnsAboutAllBut: all),
    Column("deckCard", "phase", warnsAboutAllBut: [.null]),
    Column("deckCard", "step", warnsAboutAllBut: [.null]),
    Column("deckCard", "stability", warnsAboutAllBut: []),
    Column("deckCard", "difficulty", warnsAboutAllBut: []),
    Column("deckCard", "due", warnsAboutAllBut: [.nanText, .minusOne, .null]),  // 'NaN' reads as 0: 1970
    Column("deckCard", "lastReview", warnsAboutAllBut: [.nanText, .minusOne]),
    Column("deckCard", "reviews", warnsAboutAllBut: [.nanText, .null]),
    Column("deckCard", "lapses", warnsAboutAllBut: [.nanText, .null]),
    Column("deckCard", "addedAt", warnsAboutAllBut: all),
    Column("deckReview", "ordinal", warnsAboutAllBut: all),
    Column("deckReview", "reverse", warnsAboutAllBut: all),
    Column("deckReview", "rating", warnsAboutAllBut: [.null]),
    Column("deckReview", "at", warnsAboutAllBut: [.nanText, .minusOne, .null]),
    Column("deckReview", "milliseconds", warnsAboutAllBut: all),
    Column("deckReview", "stabilityBefore", warnsAboutAllBut: all),
    Column("deckReview", "difficultyBefore", warnsAboutAllBut: all),
    Column("deckReview", "undone", warnsAboutAllBut: all),
    Column("deckWeights", "weights", warnsAboutAllBut: [.null]),
    Column("deckWeights", "reviews", warnsAboutAllBut: all),
    Column("deckWeights", "logLoss", warnsAboutAllBut: all),
    Column("deckWeights", "at", warnsAboutAllBut: all),
    // The rates' setting: `EUR USD 27/25 DAY` a line. A day of -1 is 1969-12-31; a rate of
    // Int64.max is a whole number of 19 digits.
    Column("rates", "day", warnsAboutAllBut: [.minusOne]),
    Column("rates", "value", warnsAboutAllBut: [.int64Max]),
  ]

  static let deck = """
    #separator:tab
    #guid column:1
    g1\tCapital of France?\tParis
    g2\tCapital of Peru?\tLima
    """

  /// A profile with a deck, one card in review with its review, fitted weights and a rate.
  static func setUp(_ path: String, clock: ManualClock) throws {
    let store = SQLiteStore(path: path)
    var session = Session(clock: clock, random: SeededRandom(seed: 1), store: store, profile: "ada")
    session.state.files = MemoryFiles(["caps.txt": Array(deck.utf8)])
    #expect(!session.handle("cards load caps.txt").failed)
    _ = session.handle("cards caps")
    clock.advance(milliseconds: 2000)
    #expect(session.handle("paris").outputs.contains { if case .feedback(true, _) = $0 { true } else { false } })
    _ = session.handle("quit")
    _ = session.handle("set rate EUR 1.08 USD")
    _ = session.handle("set rate EUR 0.85 GBP")
    try store.write(
      Decks.SaveWeights(
        profile: "ada", deck: "caps", weights: FSRS.defaultWeights, reviews: 600, logLoss: 0.3, at: 1))
    store.willEnd()
  }

  /// Plants `value` in `column`; false when SQLite refuses it (NULL in a NOT NULL column).
  static func plant(_ value: Value, in column: Column, at path: String) throws -> Bool {
    let db = try Database(path)
    switch column.table {
    case "rates":
      let line = column.name == "day" ? "EUR USD 27/25 \(value.word)" : "EUR USD \(value.word) 19675"
      try db.run("UPDATE setting SET value = ? WHERE key = 'rates'", "EUR GBP 17/20 19675\n" + line)
      return true
    case "deckWeights" where column.name == "weights":
      guard value != .null else { break }
      let words = FSRS.defaultWeights.dropLast().map { "\($0)" } + [value.word]
      try db.run("UPDATE deckWeights SET weights = ?", words.joined(separator: " "))
      return true
    default: break
    }
    let filter =
      column.table == "deckCard" ? " WHERE note = 'g1' AND NOT reverse" : ""
    let sql = "UPDATE \(column.table) SET \(column.name) = \(value.sql)\(filter)"
    do {
      if value == .null { try db.run(sql, Double.nan) } else { try db.execute(sql) }
      return true
    } catch {
      #expect(error.message.hasPrefix("NOT NULL constraint failed"), "\(error)")
      return false
    }
  }

  /// Every command that reads what was planted, in a new session: the warnings they gave
  /// about the decks and the rates. A conversion through a rate left out is the error a
  /// missing rate is; one through a rate kept (and every other command) does not fail.
  static func runEveryCommand(_ path: String, clock: ManualClock) -> [String] {
    let store = SQLiteStore(path: path)
    defer { store.willEnd() }
    var session = Session(clock: clock, random: SeededRandom(seed: 2), store: store, profile: "ada")
    var warnings: [String] = []
    func run(_ line: String) {
      let reply = session.handle(line)
      #expect(!reply.failed, "\(line): \(reply.outputs)")
      for case .warning(let text) in reply.outputs { warnings.append(text) }
    }
    let dollars = session.handle("1 EUR to USD")
    for case .warning(let text) in dollars.outputs { warnings.append(text) }
    let leftOut = warnings.contains { $0.hasPrefix("a saved exchange rate is left out") }
    if case .error(let error, _)? = dollars.outputs.last {
      #expect(leftOut && ExchangeRates.isMissing(error), "\(error)")
    } else {
      #expect(!leftOut, "\(dollars.outputs)")
    }
    for line in [
      "rates", "1 EUR to GBP", "stats", "stats cards", "cards", "cards caps browse", "cards export caps",
      "cards caps optimize",
    ] {
      run(line)
    }
    // A review: a typed answer graded, an answer shown and graded, then quit.
    run("cards caps")
    if !session.isInCalculator { run("nowhere") }
    if !session.isInCalculator { run("") }
    if !session.isInCalculator { run("3") }
    if !session.isInCalculator { run("quit") }
    run("cards caps browse")
    return warnings
  }

  @Test(arguments: columns)
  func everyExtremeValueIsLeftOutOrUsedNeverATrap(_ column: Column) throws {
    for value in Value.allCases {
      let folder = try SQLiteStoreTests.Folder()
      let path = folder.path + "/reckon.sqlite"
      let clock = ManualClock()
      try Self.setUp(path, clock: clock)
      guard try Self.plant(value, in: column, at: path) else { continue }
      clock.advance(milliseconds: 3 * 86_400_000)
      let warnings = Self.runEveryCommand(path, clock: clock)
      let about = warnings.filter { $0.hasPrefix("caps: ") || $0.hasPrefix("a saved exchange rate is left out") }
      if column.warnsAbout.contains(value.rawValue) {
        #expect(!about.isEmpty, "\(column.testDescription) = \(value): no warning")
      } else {
        #expect(about.isEmpty, "\(column.testDescription) = \(value): \(about)")
      }
    }
  }

  /// A negative interval: due a day before the last review (valid times, in an order FSRS
  /// never makes). The card is overdue, and everything works.
  @Test func aCardDueBeforeItsLastReviewIsSimplyOverdue() throws {
    let folder = try SQLiteStoreTests.Folder()
    let path = folder.path + "/reckon.sqlite"
    let clock = ManualClock()
    try Self.setUp(path, clock: clock)
    let db = try Database(path)
    try db.execute("UPDATE deckCard SET due = lastReview - 86400000 WHERE note = 'g1' AND NOT reverse")
    let warnings = Self.runEveryCommand(path, clock: clock)
    #expect(warnings.isEmpty, "\(warnings)")
  }
}
