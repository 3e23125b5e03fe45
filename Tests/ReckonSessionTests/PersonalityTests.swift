import Foundation
import ReckonStore
import Testing

@testable import ReckonSession

/// Personality quiz files: the built-in quizzes pass the checker, every kind of problem is
/// named by its place, and the result's rules (a scale's mapping, ties).
@Suite struct PersonalityTests {
  /// A quiz with one question of each kind, with `change` made to its text first.
  static func quiz(_ change: (String) -> String = { $0 }) -> String {
    change(
      """
      {
        "name": "t",
        "title": "Test",
        "outcomes": [
          { "id": "owl", "name": "Owl", "symbol": "🦉", "description": "Wise. Calm." },
          { "id": "fox", "name": "Fox", "symbol": "🦊", "description": "Quick. Clever." }
        ],
        "questions": [
          { "text": "One?", "answers": [ { "text": "A", "outcome": "owl" }, { "text": "B", "outcome": "fox" } ] },
          { "text": "Any?", "kind": "multiple",
            "answers": [ { "text": "C", "outcome": "owl" }, { "text": "D", "outcome": "fox" } ] },
          { "text": "How?", "kind": "scale", "scale": { "steps": 4, "low": "Lo", "high": "Hi" },
            "answers": [ { "text": "E", "outcome": "owl" }, { "text": "F", "outcome": "fox" } ] }
        ]
      }
      """)
  }

  static func problems(_ text: String) -> [String] {
    switch PersonalityFile.read(Array(text.utf8)) {
    case .success: return []
    case .failure(let failure): return failure.all.map(\.description)
    }
  }

  @Test func theTestQuizIsValid() throws {
    let quiz = try PersonalityFile.read(Array(Self.quiz().utf8)).get()
    #expect(quiz.questions.map(\.kind) == [.single, .multiple, .scale])
    #expect(quiz.questions[2].scale == PersonalityQuiz.Scale(steps: 4, low: "Lo", high: "Hi"))
    #expect(quiz.outcomes.map(\.id) == ["owl", "fox"])
    #expect(quiz.description == "")
  }

  /// Each change to the valid quiz, and the one problem it must be reported as.
  @Test(arguments: [
    (
      #""text": "B", "outcome": "fox""#, #""text": "B", "outcome": "bat""#,
      #"line 9: questions[0].answers[1].outcome: unknown outcome "bat" (the outcomes are "owl" and "fox")"#
    ),
    (
      #""name": "t","#, #""name": "T T","#,
      #"line 2: name: "T T" should be 1 to 32 lowercase letters, digits or '-', starting with a letter (it is typed to start the quiz)"#
    ),
    (
      #""name": "t","#, #""name": "load","#,
      #"line 2: name: "load" is a word of the personality command: choose another name"#
    ),
    (#""title": "Test","#, "", #"line 1: missing "title""#),
    (#""symbol": "🦊", "#, "", #"line 6: outcomes[1]: missing "symbol""#),
    (#""id": "fox""#, #""id": "owl""#, #"line 6: outcomes[1].id: "owl" is the id of an earlier outcome too"#),
    (
      #""kind": "multiple""#, #""kind": "many""#,
      #"line 10: questions[1].kind: "many" is not a kind of question (single, multiple or scale)"#
    ),
    (#""steps": 4"#, #""steps": 1"#, "line 12: questions[2].scale.steps: should be a whole number from 2 to 10"),
    (#""steps": 4"#, #""steps": 2.5"#, "line 12: questions[2].scale.steps: should be a whole number from 2 to 10"),
    (#""text": "One?""#, #""text": 1"#, "line 9: questions[0].text: should be a string, not a number"),
    (#""text": "One?""#, #""text": "  ""#, "line 9: questions[0].text: is empty"),
    (
      #""title": "Test","#, #""title": "Test", "colour": "red","#,
      "line 3: colour: unknown key (the keys here are: description, name, outcomes, questions, title)"
    ),
    (
      #""text": "B", "outcome": "fox""#, #""text": "a", "outcome": "fox""#,
      "line 9: questions[0].answers[1].text: the same as answers[0]"
    ),
    (
      #", "scale": { "steps": 4, "low": "Lo", "high": "Hi" }"#, "",
      #"line 12: questions[2]: a scale question needs "scale": {"steps": 5, "low": "…", "high": "…"}"#
    ),
    (
      #"{ "text": "One?", "answers""#, #"{ "text": "One?", "scale": {}, "answers""#,
      #"line 9: questions[0].scale: only a question of kind "scale" has a scale (this one is single)"#
    ),
    (#""outcomes": ["#, #""outcomes": 3, "x": ["#, "line 4: outcomes: should be an array ([…]), not a number"),
    (#", "high": "Hi""#, "", #"line 12: questions[2].scale: missing "high""#),
    (#""title": "Test","#, #""title": "Test""#, "line 4: not valid JSON at column 3: expected ',' or '}'"),
  ])
  func namesEachProblem(_ find: String, _ replace: String, _ expected: String) {
    let text = Self.quiz { $0.replacingOccurrences(find, replace) }
    #expect(text != Self.quiz())
    #expect(Self.problems(text).contains(expected), "\(Self.problems(text))")
  }

  @Test func everyProblemIsReportedAndNothingIsLoaded() {
    let text = Self.quiz {
      $0.replacingOccurrences(#""text": "B", "outcome": "fox""#, #""text": "B", "outcome": "bat""#)
        .replacingOccurrences(#""steps": 4"#, #""steps": 11"#).replacingOccurrences(#""name": "t","#, "")
    }
    #expect(
      Self.problems(text) == [
        #"line 1: missing "name""#,
        #"line 9: questions[0].answers[1].outcome: unknown outcome "bat" (the outcomes are "owl" and "fox")"#,
        "line 12: questions[2].scale.steps: should be a whole number from 2 to 10",
      ])
  }

  @Test func anOutcomeNoAnswerLeadsToIsAProblem() {
    let text = Self.quiz {
      $0.replacingOccurrences(
        #"{ "id": "fox", "name": "Fox", "symbol": "🦊", "description": "Quick. Clever." }"#,
        #"{ "id": "fox", "name": "Fox", "symbol": "🦊", "description": "Quick. Clever." }, { "id": "bat", "name": "Bat", "symbol": "🦇", "description": "Up late." }"#
      )
    }
    #expect(Self.problems(text) == [#"line 6: outcomes[2]: no answer leads to "bat""#])
  }

  @Test func notUTF8IsNamedByLineAndByte() {
    var bytes = Array(Self.quiz().utf8)
    bytes[bytes.firstIndex(of: UInt8(ascii: "T"))!] = 0xFF
    guard case .failure(let failure) = PersonalityFile.read(bytes) else {
      Issue.record("read a file that is not UTF-8")
      return
    }
    #expect(failure.all.map(\.description) == ["line 3: not UTF-8 text (byte 13 of the line)"])
  }

  @Test func theBuiltInQuizzesPassTheChecker() {
    #expect(BuiltInQuizzes.problems.isEmpty, "\(BuiltInQuizzes.problems)")
    let quizzes = BuiltInQuizzes.all
    // Issue 30: five more than the first two, each of at least eight questions of all three
    // kinds, and four outcomes or more, every one of them some answer's.
    #expect(quizzes.count >= 7)
    #expect(quizzes.prefix(2).map(\.name) == ["animal", "calculator"])
    #expect(Set(quizzes.map(\.name)).count == quizzes.count)
    for quiz in quizzes {
      #expect(quiz.questions.count >= 8, "\(quiz.name)")
      #expect(quiz.outcomes.count >= 4, "\(quiz.name)")
      #expect(Set(quiz.questions.map(\.kind)) == Set(PersonalityQuiz.Kind.allCases), "\(quiz.name)")
      let reached = Set(quiz.questions.flatMap { $0.answers.map(\.outcome) })
      #expect(reached == Set(quiz.outcomes.indices), "\(quiz.name): an outcome no answer gives")
      for outcome in quiz.outcomes {
        #expect(!outcome.symbol.isEmpty)
        // Two sentences.
        #expect(outcome.description.split(separator: ". ").count == 2, "\(quiz.name): \(outcome.name)")
      }
    }
  }

  /// A scale's points are spread over its answers in order, each answer reached by a run of
  /// points as even as can be.
  @Test(arguments: [
    (5, 3, [0, 0, 1, 1, 2]), (4, 4, [0, 1, 2, 3]), (7, 2, [0, 0, 0, 0, 1, 1, 1]),
    (10, 4, [0, 0, 0, 1, 1, 2, 2, 2, 3, 3]),
  ])
  func aScaleMapsOntoItsAnswers(_ steps: Int, _ answers: Int, _ expected: [Int]) {
    let scale = PersonalityQuiz.Scale(steps: steps, low: "", high: "")
    #expect((1...steps).map { scale.answer(at: $0, of: answers) } == expected)
  }

  @Test func everyAnswerOfAScaleCanBeReached() {
    for answers in 2...PersonalityFile.maxSteps {
      for steps in answers...PersonalityFile.maxSteps {
        let scale = PersonalityQuiz.Scale(steps: steps, low: "", high: "")
        let reached = (1...steps).map { scale.answer(at: $0, of: answers) }
        #expect(reached == reached.sorted())
        #expect(Set(reached) == Set(0..<answers), "\(steps) points, \(answers) answers")
      }
    }
  }

  /// A tie goes to the outcome declared first, however the answers were ordered.
  @Test func tiesGoToTheOutcomeDeclaredFirst() throws {
    let quiz = try PersonalityFile.read(Array(Self.quiz().utf8)).get()
    #expect(quiz.ranking([2, 2]) == [0, 1])
    #expect(quiz.ranking([1, 2]) == [1, 0])
    #expect(quiz.ranking([0, 0]) == [0, 1])
  }

  /// Shuffled, the questions and the answers come in another order, a scale's answers never.
  @Test func shuffleMixesQuestionsAndAnswersButNotAScale() throws {
    let quiz = try PersonalityFile.read(Array(Self.quiz().utf8)).get()
    var orders: Set<[Int]> = []
    for seed in 0..<40 {
      var random = SeededRandom(seed: UInt64(seed))
      let mode = PersonalityMode(quiz: quiz, shuffle: true, random: &random)
      orders.insert(mode.order)
      let scale = mode.order.firstIndex(of: 2)!
      #expect(mode.shown[scale] == [0, 1])
    }
    #expect(orders.count > 1)
    var random = SeededRandom(seed: 1)
    #expect(PersonalityMode(quiz: quiz, shuffle: false, random: &random).order == [0, 1, 2])
  }

  /// Nothing chosen at all (none to every question): no outcome, and nothing saved.
  @Test func noAnswersAtAllGiveNoResult() throws {
    let text = Self.quiz {
      $0.replacingOccurrences(#"{ "text": "One?", "answers""#, #"{ "text": "One?", "kind": "multiple", "answers""#)
        .replacingOccurrences(
          #""kind": "scale", "scale": { "steps": 4, "low": "Lo", "high": "Hi" },"#, #""kind": "multiple","#)
    }
    let quiz = try PersonalityFile.read(Array(text.utf8)).get()
    let store = SQLiteStore.inMemory()
    var session = testSession(store: store)
    session.state.loadedQuizzes = [quiz]
    _ = session.handle("personality t")
    _ = session.handle("none")
    _ = session.handle("none")
    let last = plain(session.handle("none"))
    #expect(last == ["You chose none of the answers, so no outcome stands out: no result, nothing saved."])
    #expect(session.isInCalculator)
    #expect(try store.personalityResults(profile: "ada").isEmpty)
  }

  /// A result is saved to the profile's history; on a full disk, the result is still shown.
  @Test(arguments: [true, false])
  func aResultIsSavedOrSaysWhyNot(_ diskIsFine: Bool) throws {
    let store: any Store = diskIsFine ? SQLiteStore.inMemory() : failingStore()
    var session = testSession(store: store)
    _ = session.handle("personality calculator")
    var last = Reply()
    while let quiz = session.mode as? PersonalityMode {
      last = session.handle(quiz.question.kind == .multiple ? "none" : "1")
    }
    // A notice that the result was not saved comes first, as every notice does.
    let warning =
      "warning: the result is not being saved: the disk is full (Reckon keeps it and tries again with each save)"
    var lines = plain(last)
    #expect((lines.first == warning) == !diskIsFine)
    if !diskIsFine { lines.removeFirst() }
    #expect(lines.first?.hasPrefix("== You are: ") == true)
    #expect(!lines.contains(warning))
    // The outcome worked out here from the quiz's file, not from the program: "1" picks each
    // single and scale question's first answer (a scale's first point is its low end), "none"
    // nothing.
    let expected = try Self.outcome(ofBuiltIn: "calculator", picksFirstAnswerOf: ["single", "scale"])
    #expect(lines.first == "== You are: \(expected) ==")
    if diskIsFine {
      let saved = try store.personalityResults(profile: "ada")
      #expect(saved.map(\.quiz) == ["calculator"])
      #expect(lines.first == "== You are: \(saved[0].outcome) \(saved[0].symbol) ==")
    }
  }

  /// "Name symbol" of the outcome a built-in quiz gives when each question of the given kinds
  /// is answered with its first answer (and the others with none): most picks, and a tie to
  /// the outcome listed first. Read from the JSON file with Foundation's parser.
  static func outcome(ofBuiltIn name: String, picksFirstAnswerOf kinds: Set<String>) throws -> String {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Sources/ReckonData/personality/\(name).json")
    let quiz = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    let outcomes = try #require(quiz["outcomes"] as? [[String: Any]])
    var counts: [String: Int] = [:]
    for question in try #require(quiz["questions"] as? [[String: Any]]) {
      guard kinds.contains(question["kind"] as? String ?? "single") else { continue }
      let first = try #require((question["answers"] as? [[String: Any]])?.first?["outcome"] as? String)
      counts[first, default: 0] += 1
    }
    let most = counts.values.max() ?? 0
    let winner = try #require(outcomes.first { counts[$0["id"] as! String, default: 0] == most })
    return "\(winner["name"] as! String) \(winner["symbol"] as! String)"
  }
}
