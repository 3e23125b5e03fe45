import ReckonCore
import ReckonSession

/// A whole session on arbitrary lines: each line of the input is typed at the prompt, and
/// the clock moves 0.7 s between lines (and ticks, as the prompt does every second), so
/// drills, quizzes, the daily challenge, personality quizzes and anagram rounds all run,
/// and time out.
///
/// There is no store: a fresh SQLite database for each input makes a run 30 times slower
/// (13 inputs a second under the sanitizers), and saving is covered by the store's tests,
/// the transcripts and scripts/crash-safety. Without one, every mode still runs and says
/// that nothing is saved.
///
/// Invariants: nothing traps; the prompt is never empty; the calculator's variables are the
/// same when a mode ends as when it began.
enum SessionTarget {
  /// What `quiz load` and `personality load` can read (the dictionary names them).
  static let files = MemoryFiles([
    "bank.txt": Array(
      """
      category*difficulty*question*correctAnswer*incorrect1*incorrect2*incorrect3
      Space*easy*Which planet is closest to the Sun?*Mercury*Venus*Mars*Earth
      Food*medium*Which fruit is dried to make a raisin?*Grape*Plum*Apricot*Fig
      Maths*hard*What is 7 × 8?*56*54*48*64
      """.utf8),
    "pets.json": Array(
      """
      {"name": "pets", "title": "Which pet are you?", "description": "Two questions.",
       "outcomes": [{"id": "cat", "name": "Cat", "symbol": "C", "description": "Naps."},
                    {"id": "dog", "name": "Dog", "symbol": "D", "description": "Walks."}],
       "questions": [
         {"text": "Where?", "answers": [{"text": "Sun", "outcome": "cat"}, {"text": "Door", "outcome": "dog"}]},
         {"text": "Which?", "kind": "multiple",
          "answers": [{"text": "String", "outcome": "cat"}, {"text": "Ball", "outcome": "dog"}]},
         {"text": "Company?", "kind": "scale", "scale": {"steps": 5, "low": "No", "high": "Yes"},
          "answers": [{"text": "Alone", "outcome": "cat"}, {"text": "Always", "outcome": "dog"}]}]}
      """.utf8),
  ])

  /// Enough lines for a whole drill or quiz round; more only makes each run slower.
  static let maxLines = 300

  @Sendable static func run(_ bytes: [UInt8]) {
    let clock = ManualClock()
    var session = Session(clock: clock, random: SeededRandom(seed: 7), store: nil, profile: "fuzz")
    session.state.files = files
    session.state.digitLimit = ExpressionTarget.digitLimit
    session.state.factorSteps = 20_000
    _ = session.restoreSettings()
    var variablesWhenLeft: [String: Value]?
    for (index, slice) in bytes.split(separator: 10, omittingEmptySubsequences: false).enumerated() {
      guard index < maxLines else { break }
      let wasInCalculator = session.isInCalculator
      let reply = session.handle(String(decoding: slice, as: UTF8.self))
      check(session, wasInCalculator: wasInCalculator, variablesWhenLeft: &variablesWhenLeft)
      if reply.shouldExit { break }
      clock.advance(milliseconds: 700)
      let inMode = !session.isInCalculator
      _ = session.tick()
      check(session, wasInCalculator: !inMode, variablesWhenLeft: &variablesWhenLeft)
    }
    _ = session.finish()
  }

  static func check(_ session: Session, wasInCalculator: Bool, variablesWhenLeft: inout [String: Value]?) {
    require(!session.prompt.isEmpty, "an empty prompt")
    let variables = session.state.environment.variables
    if wasInCalculator && !session.isInCalculator {
      variablesWhenLeft = variables
    } else if !wasInCalculator, let before = variablesWhenLeft {
      require(variables == before, "a mode changed the calculator's variables: \(before) → \(variables)")
      if session.isInCalculator { variablesWhenLeft = nil }
    }
  }
}
