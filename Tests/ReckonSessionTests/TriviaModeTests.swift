import ReckonStore
import Testing

@testable import ReckonSession

/// The daily question of a date, answers picked by letter or text, and the daily clock.
@Suite struct DailyQuestionTests {
  static let bank = BuiltInQuestions.bank
  static let first = Day(year: 2026, month: 11, day: 23)!

  @Test(arguments: Difficulty.allCases)
  func theSameDateGivesTheSameQuestionAndTheNextDayAnother(_ level: Difficulty) throws {
    let today = try #require(DailyQuestions.question(for: Self.first, difficulty: level, in: Self.bank))
    // Worked out again from a bank built afresh, in another order: the same question.
    let shuffled = QuestionBank(Self.bank.questions.reversed())
    #expect(DailyQuestions.question(for: Self.first, difficulty: level, in: shuffled) == today)
    let tomorrow = DailyQuestions.question(for: Self.first.advanced(by: 1), difficulty: level, in: Self.bank)
    #expect(tomorrow != today)
    #expect(tomorrow?.difficulty == level)
  }

  /// Every question of a difficulty has its day before any comes again, across the end of a
  /// cycle too.
  @Test(arguments: Difficulty.allCases)
  func theBankIsGoneThroughBeforeAQuestionRepeats(_ level: Difficulty) {
    let count = Self.bank.matching(difficulty: level, category: nil).count
    for start in [Self.first, Self.first.advanced(by: count / 2), Day(number: -5)] {
      let keys = (0..<count).compactMap {
        DailyQuestions.question(for: start.advanced(by: $0), difficulty: level, in: Self.bank)?.key
      }
      #expect(Set(keys).count == count)
    }
  }

  /// The built-in bank's keys (which the store keeps every answer under) and the daily
  /// questions they pick must not change from one version to the next, or a user's history
  /// comes loose from its questions and friends on two versions get different challenges.
  /// These values were worked out independently, by a Python re-implementation of the
  /// documented algorithm (FNV-1a of each folded text; the fingerprint over the difficulty and
  /// the keys in order; SplitMix64 and Fisher–Yates; the day number mod the count), and are
  /// what Reckon gave before same-text questions with other answers were allowed.
  @Test func theBuiltInBanksKeysAndDailyQuestionsStayAsTheyWere() throws {
    var digest = StableHash()
    for key in Self.bank.questions.map(\.key).sorted() { digest.add(key) }
    #expect(Self.bank.count == 180)
    #expect(StableHash.hex(digest.value) == "94e21bd0feb6e7e2")
    let expected: [Difficulty: [String]] = [
      .easy: [
        "Which composer wrote the \"Moonlight Sonata\"?", "What is the past tense of \"go\"?",
        "What is the capital city of Japan?", "Who was the first President of the United States?",
      ],
      .medium: [
        "What does the Latin phrase \"carpe diem\" mean?",
        "Which strait separates Spain from Morocco and links the Atlantic to the Mediterranean?",
        "From which language does English get the word \"kindergarten\"?",
        "Who painted \"Girl with a Pearl Earring\"?",
      ],
      .hard: [
        "Which logician published the incompleteness theorems in 1931?", "What is the name of Don Quixote's horse?",
        "The word \"quarantine\" comes from the Italian for which number?",
        "In Dante's \"Inferno\", who guides Dante through Hell?",
      ],
    ]
    for (level, texts) in expected {
      let picked = (0..<texts.count).map {
        DailyQuestions.question(for: Self.first.advanced(by: $0), difficulty: level, in: Self.bank)?.text
      }
      #expect(picked == texts, "\(level)")
    }
    let first = try #require(DailyQuestions.question(for: Self.first, difficulty: .easy, in: Self.bank))
    #expect(first.key == "e6940630f23764cb")
  }

  @Test func anotherBankGivesAnotherSequence() {
    // One easy question fewer.
    let dropped = Self.bank.matching(difficulty: .easy, category: nil).last!
    let smaller = QuestionBank(Self.bank.questions.filter { $0 != dropped })
    let days = (0..<30).map { Self.first.advanced(by: $0) }
    let a = days.map { DailyQuestions.question(for: $0, difficulty: .easy, in: Self.bank)?.key }
    let b = days.map { DailyQuestions.question(for: $0, difficulty: .easy, in: smaller)?.key }
    #expect(a != b)
  }

  @Test func aDailyQuestionsAnswersAreInTheSameOrderForEveryone() {
    let question = Self.bank.questions[0]
    let once = DailyQuestions.choices(for: question, on: Self.first).answers
    #expect(DailyQuestions.choices(for: question, on: Self.first).answers == once)
    #expect(Set(once) == Set(question.answers))
  }

  @Test(
    arguments: [
      ("b", 1), ("B", 1), ("b)", 1), ("(c)", 2), ("  Zürich ", 0), ("zurich", 0), ("BERN", 1), ("e", nil), ("", nil),
      ("Geneva!", 2), ("genev", nil),
    ] as [(String, Int?)])
  func anAnswerIsItsLetterOrItsText(_ input: String, _ expected: Int?) {
    let question = TriviaQuestion(
      category: "Places", difficulty: .easy, text: "Largest Swiss city?", correct: "Zürich",
      incorrect: ["Bern", "Geneva", "Basel"])
    var random = SeededRandom(seed: 0)
    var choices = Choices(question, random: &random)
    // Put them back in the bank's order, so the letters are known.
    choices = Choices(copying: choices, answers: question.answers)
    #expect(choices.pick(input) == (expected.map { .answer($0) } ?? .none))
  }

  /// Blood groups: `a` could be the letter or the answer A; `a)` is the letter.
  @Test(arguments: [
    ("a", Choices.Pick.ambiguous(letter: "a")), ("a)", .answer(0)), ("ab", .answer(2)), ("O", .answer(0)),
  ])
  func aLetterThatIsAlsoAnAnswerIsAskedAbout(_ input: String, _ expected: Choices.Pick) {
    let question = TriviaQuestion(
      category: "Body", difficulty: .hard, text: "The universal donor?", correct: "O", incorrect: ["A", "AB", "B"])
    var random = SeededRandom(seed: 0)
    let choices = Choices(copying: Choices(question, random: &random), answers: question.answers)
    #expect(choices.pick(input) == expected)
  }
}

extension Choices {
  init(copying other: Choices, answers: [String]) {
    self = other
    self.answers = answers
  }
}

/// The clock of a daily challenge while a line is being typed (`Session.tick`).
@Suite struct DailyClockTests {
  func started(_ clock: ManualClock, store: SQLiteStore) -> Session {
    var session = testSession(clock: clock, store: store)
    session.state.builtInQuestions = BuiltInQuestions.bank
    _ = session.handle("daily easy")
    return session
  }

  /// A wrong answer locks the day's challenge as surely as a right one, here and after a
  /// restart, on a fixed date (14 Nov 2023, the manual clock's): the lock is tested whatever
  /// letter is right that day.
  @Test(arguments: Difficulty.allCases)
  func aWrongAnswerLocksTheChallengeUntilTomorrow(_ difficulty: Difficulty) throws {
    let clock = ManualClock()
    let store = SQLiteStore.inMemory()
    var session = testSession(clock: clock, store: store)
    session.state.builtInQuestions = BuiltInQuestions.bank
    #expect(clock.today().iso == "2023-11-14")
    _ = session.handle("daily \(difficulty.rawValue)")
    guard let daily = session.mode as? DailyMode else {
      Issue.record("the challenge did not start: \(type(of: session.mode))")
      return
    }
    let right = try #require(daily.choices.answers.firstIndex(of: daily.choices.question.correct))
    let wrong = "abcd".map(String.init)[(right + 1) % daily.choices.answers.count]
    let answered = plain(session.handle(wrong))
    #expect(answered.first?.hasPrefix("✗ The answer is ") == true, "\(answered)")
    #expect(session.isInCalculator)
    let again = plain(session.handle("daily \(difficulty.rawValue)"))
    #expect(
      again.first?.hasPrefix("You have answered today's \(difficulty.rawValue) challenge: wrong") == true, "\(again)")
    #expect(session.isInCalculator)
    var restarted = testSession(clock: clock, store: store)
    restarted.state.builtInQuestions = BuiltInQuestions.bank
    #expect(plain(restarted.handle("daily \(difficulty.rawValue)")) == again)
    #expect(restarted.isInCalculator)
    // The next day opens a new one.
    clock.advance(milliseconds: 86_400_000)
    _ = restarted.handle("daily \(difficulty.rawValue)")
    guard restarted.mode is DailyMode else {
      Issue.record("the next day's challenge did not start")
      return
    }
  }

  /// Each tick saves the time so far: a Reckon killed between two lines comes back within
  /// a second of where it was.
  @Test func aTickSavesTheTimeSoFar() throws {
    let clock = ManualClock()
    let store = SQLiteStore.inMemory()
    var session = started(clock, store: store)
    clock.advance(milliseconds: 42_000)
    #expect(session.tick().outputs.isEmpty)
    #expect(session.prompt == "daily easy 0:42> ")
    let saved = try store.read(DailyChallenges.Days(profile: "ada", from: clock.today(), through: clock.today()))
    #expect(saved.map(\.elapsedMilliseconds) == [42_000])
    #expect(saved.map(\.finished) == [false])
    // A new session on the same store (as after kill -9) resumes at 0:42.
    var again = testSession(clock: clock, store: store)
    again.state.builtInQuestions = BuiltInQuestions.bank
    #expect(plain(again.handle("daily easy")).first == "Resuming today's easy challenge at 0:42.")
  }

  @Test func reachingSixtyMinutesWhileTypingEndsItAsWrong() throws {
    let clock = ManualClock()
    let store = SQLiteStore.inMemory()
    var session = started(clock, store: store)
    clock.advance(milliseconds: DailyMode.limit)
    let reply = plain(session.tick())
    #expect(reply.first?.hasPrefix("✗ Time's up (60:00): the answer is ") == true)
    #expect(session.isInCalculator)
    let saved = try store.read(DailyChallenges.Days(profile: "ada", from: clock.today(), through: clock.today()))
    #expect(saved.map(\.finished) == [true])
    #expect(saved.map(\.correct) == [false])
    #expect(saved.map(\.elapsedMilliseconds) == [DailyMode.limit])
  }

  /// Leaving after 60:00 (quit, or the end of piped input) is not a way round the limit.
  @Test(arguments: ["quit", "@end"])
  func leavingAfterSixtyMinutesEndsItAsWrong(_ how: String) throws {
    let clock = ManualClock()
    let store = SQLiteStore.inMemory()
    var session = started(clock, store: store)
    clock.advance(milliseconds: DailyMode.limit + 5000)
    let reply = plain(how == "quit" ? session.handle("quit") : session.finish())
    #expect(reply.first?.hasPrefix("✗ Time's up (60:00)") == true, "\(reply)")
    let saved = try store.read(DailyChallenges.Days(profile: "ada", from: clock.today(), through: clock.today()))
    #expect(saved.map(\.finished) == [true])
  }

  @Test func aPausedChallengeDoesNotTick() throws {
    let clock = ManualClock()
    var session = started(clock, store: SQLiteStore.inMemory())
    _ = session.handle("pause")
    #expect(!session.input.promptIsLive)
    clock.advance(milliseconds: 2 * DailyMode.limit)
    #expect(session.tick().outputs.isEmpty)
    #expect(session.prompt == "daily easy paused 0:00> ")
  }

  /// Two Reckons on one challenge: the second answer finds it finished and changes nothing.
  @Test func aChallengeFinishedElsewhereStaysAsItWas() throws {
    let clock = ManualClock()
    let store = SQLiteStore.inMemory()
    var first = started(clock, store: store)
    var second = started(clock, store: store)
    clock.advance(milliseconds: 5000)
    _ = first.handle("a")
    clock.advance(milliseconds: 5000)
    let reply = plain(second.handle("b"))
    #expect(reply.first?.hasPrefix("This challenge was finished in another Reckon") == true)
    let saved = try store.read(DailyChallenges.Days(profile: "ada", from: clock.today(), through: clock.today()))
    #expect(saved.map(\.elapsedMilliseconds) == [5000])
    #expect(try store.read(Answers.Groups(profile: "ada", mode: "daily")).map(\.answered) == [1])
  }
}
