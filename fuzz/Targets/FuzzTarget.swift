/// One thing to fuzz: a name for `fuzz/run` and a function over arbitrary bytes.
///
/// A target never throws: each input either is handled (an answer, an error message, a list
/// of problems) or the invariant it checks is broken, and then it stops the process with
/// `fatalError`, which libFuzzer reports as a crash and saves the input.
public struct FuzzTarget: Sendable {
  public let name: String
  public let summary: String
  public let run: @Sendable ([UInt8]) -> Void

  /// Every target, in the order `fuzz/run` lists them.
  public static let all: [FuzzTarget] = [
    FuzzTarget(
      name: "expression", summary: "the lexer, parser, evaluator and formatter on one line",
      run: ExpressionTarget.run),
    FuzzTarget(
      name: "session", summary: "the session handling lines in every mode, with ticks of the clock",
      run: SessionTarget.run),
    FuzzTarget(
      name: "bill", summary: "a bill's lines: items, currencies, tax, tips, payments, edits; the split adds up",
      run: BillTarget.run),
    FuzzTarget(
      name: "trivia", summary: "trivia banks: star-separated, CSV and Open Trivia DB JSON", run: ImportTargets.trivia),
    FuzzTarget(name: "personality", summary: "personality quiz JSON", run: ImportTargets.personality),
    FuzzTarget(name: "words", summary: "anagram word lists", run: ImportTargets.words),
    FuzzTarget(name: "levels", summary: "anagram level tables", run: ImportTargets.levels),
    FuzzTarget(name: "deck-anki", summary: "flashcard decks in Anki's plain text", run: DeckTargets.ankiText),
    FuzzTarget(name: "deck-csv", summary: "flashcard decks in CSV", run: DeckTargets.csv),
    FuzzTarget(name: "deck-markdown", summary: "flashcard decks in Markdown", run: DeckTargets.markdown),
    FuzzTarget(name: "apkg", summary: "Anki packages: zip, inflate, Zstandard, SQLite", run: DeckTargets.package),
    FuzzTarget(
      name: "collection", summary: "Anki collections: SQLite databases of notes and note types",
      run: DeckTargets.collection),
    FuzzTarget(
      name: "rates", summary: "exchange rate files (the ECB's CSV, plain lists) and the rates' setting",
      run: StoredValueTargets.rates),
    FuzzTarget(
      name: "schedule", summary: "flashcard schedules: #reckon card: lines, stored rows and weights, then FSRS",
      run: StoredValueTargets.schedule),
  ]

  public static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }
}

/// Stops the process when an invariant does not hold: libFuzzer saves the input that did it.
func require(_ condition: Bool, _ message: @autoclosure () -> String) {
  if !condition { fatalError("invariant broken: \(message())") }
}
