import ReckonCore
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

  /// The built-in bank's keys (which the store keeps every answer under) and the daily
  /// questions they pick must not change from one version to the next, or a user's history
  /// comes loose from its questions and friends on two versions get different challenges.
  /// These values were worked out independently, by a Python re-implementation of the
  /// documented algorithm (FNV-1a of each folded text; the fingerprint over the difficulty and
  /// the keys in order; SplitMix64 and Fisher–Yates; the day number mod the count), and are
  /// what Reckon gave before same-text questions with other answers were allowed.
  @Test func theBuiltInBanksKeysAndDailyQuestionsStayAsTheyWere() throws {
    var digest = StableHash()
    let firstEdition = Self.bank.questions.filter { $0.dailyFrom == nil }
    for key in firstEdition.map(\.key).sorted() { digest.add(key) }
    #expect(firstEdition.count == 180)
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

  /// Issue 30: the days played before the bank grew to a year keep their questions. These are
  /// the keys of the 60 days up to 2026-11-27 (a whole cycle of the first bank's 60 questions
  /// a difficulty, so every earlier day too), as the bank of 180 gave them before it grew.
  @Test(arguments: Difficulty.allCases)
  func theDaysPlayedBeforeTheBankGrewStayAsTheyWere(_ level: Difficulty) throws {
    let pinned: [Difficulty: [String]] = [
      .easy: [
        "03b668e138994c87", "65359cabf0abea15", "dee88c8ff3296812", "2c5409601b5ec2e3", "9c2d681c19df3984",
        "105c3684bcf05fe7", "adbca31c884af2d6", "f30ee9bdc5a52439", "7781b93a7e4f8892", "d8178cba9a39b1cf",
        "df22041a7d6295e0", "110ed8529080593c", "281e37b8e5db662b", "c16e7adcbb2392fd", "1c286d7f073be2da",
        "366406b158f451d8", "0f5457e4e21214de", "7a59e7a80f5f96d1", "9101454bde04ee11", "a56aa36b61cb2f67",
        "30fd0a021378e82e", "dceb9d7b0e3b62f4", "814d3a73941b9542", "f6722b3709e44c0a", "691dc2e8c4d75a17",
        "7376734b166cff15", "691d69bb02d9a569", "647fe17ed9166904", "3ce217d06505592a", "7d806ddfdfdb3c16",
        "b17e532edde3335c", "4c6d49c8389220b4", "bfedfb33393c1ef4", "3edfac99dabfd0be", "d6fcb830165930d4",
        "99a5fe63f018f360", "c5ae01e713529a59", "d52fb5dacfda5b79", "3b6365043a130b50", "6879d256264a43de",
        "4c1aef2e0f1eb3cc", "03ee628b9b33e3e5", "033b3acbb4e8be25", "8f45de06c7e77aa6", "d2d3e35b8d26f043",
        "f0a151bdc79f3942", "14d4322af60ad15f", "0a848972993ad84b", "4929542483fc5c88", "eddc5323233ca428",
        "5fc7ca93d00e63fd", "a8eb43e970251ea6", "5bec7dcd0b164a63", "79c6b05d04f50e0b", "772f76928ca9b504",
        "e6940630f23764cb", "bfb040e6e5df8d9a", "237f8da3edfdddec", "8dec7899dc47643a", "3fbeec01a0bc694d",
      ],
      .medium: [
        "9d7c18bfef019d0e", "8dd5fb5732054675", "8455e4ae6fd72863", "0ee3b7b85d7cb22d", "ef69c08876027360",
        "050a343a8d5e9a17", "0c4010bc80e6c865", "e84634870c301eba", "b85f49ab5cae7193", "e5de39b43966a70b",
        "d0f028d711f24a77", "02863b43d4fd360f", "34b325002dbf59b0", "dfeb97f194f244b5", "4da91813e64ef6e8",
        "27a89a391ba844bf", "33357e385d88a27c", "822c13984efe29bd", "9be6ba76aae559cf", "90f6eb138847aacc",
        "d0a4176ef8e66209", "8b03aa6ef963bd6d", "f476a2c8bce4c16d", "2390b9906f122da1", "ecb12b06bf1eb2f9",
        "3e304b814da11b71", "2542b8aa7be1566b", "71407f8adc43b778", "c2cb9cd534604dcb", "d89931655cd5d091",
        "b5ce047656837ace", "bac2be2ad01b30c3", "0dbdaab3f0fb5f83", "c1929e590cbd487b", "b549d03d23a1b513",
        "c6e8d4bad4348913", "3d82d3e2e051d776", "1b450013cb24bbd8", "d3a89826b03bc34e", "d79442834d912a7f",
        "2772ca2c5e143861", "35f2fce3ed24a6be", "cffe09e8ef5c13ca", "81ea4aec0959fb08", "ae61c007f4e77aa1",
        "4acaceebe4d941e9", "dbf268a920eee114", "965195685d62d402", "27306b37652105ce", "b04d4b448288a595",
        "34ae39e29dba62d6", "ab7b52fca391f2d6", "d6a6ce50528aeab4", "9daf58291ba98012", "aff9fc5ff66a3548",
        "3213006145a63b6f", "399b846152d20eec", "22bb26555b395cf2", "a8dd5781ab3441e5", "720216bc9d14ddd8",
      ],
      .hard: [
        "27fba744aa68a2a1", "fda2acbabab05080", "98de430efac1dbea", "3ad9c09e5ccf9c50", "fc20b3f6737f7167",
        "1cd7d4b3e9e99743", "adbb0660aee78425", "2088969997eca87b", "ba0ef503d4608804", "d4875b64752e7575",
        "054349d0f4bba481", "0c6ea63341a38b0e", "7ade12c2cf1e7a5f", "26fc60eb23136d26", "efb2c387637873cd",
        "ed6b7dce2040966a", "9852bda607d4595d", "3bc6e774e1be0299", "c55f7c74c824772c", "79ccca0b47450131",
        "8ad6eab2b0690547", "3b36d29060f34205", "fe372d909621612a", "a78b0731971dfae7", "d6ce19276b93f9af",
        "7a71cb83d843742d", "002f124c6b3c0de9", "0312b0e63dc386b4", "0c891c6bbb13746d", "94ceef8a3198d784",
        "3bbf288bf8da2086", "fa3fc779b58c6bcf", "b93a925f048b9801", "f1d5b138d74da56b", "ecef8ae7518945cd",
        "4cdca0fe90d2d996", "0b26c89598d5897e", "d650fa52f0f82a71", "d8b3879a237a9ca1", "6ef41019add98754",
        "6a7988eedeadb007", "1a0d8267794740a7", "5107f0f8bb66a62c", "6ecc93c4d0d55b4f", "b66da08361efa0c5",
        "0647b646a3c14f54", "069adbfc63dc3ef1", "0c33287d320ddd32", "89631611feab9481", "b3fc8b9f09ad71aa",
        "2bea92c1902ef1dc", "0e391b94dee6e1f7", "90e83277ea6daccb", "8aad52f5fecfd6c0", "dc74d0dabe7b9568",
        "60bfbfc9618063c0", "1d74d3a5f7f7a235", "03b59aa191a2a741", "dc3e76932e48176a", "d59315af462544d4",
      ],
    ]
    let first = Day(year: 2026, month: 9, day: 29)!
    let keys = (0..<60).map {
      DailyQuestions.question(for: first.advanced(by: $0), difficulty: level, in: Self.bank)?.key
    }
    #expect(keys == pinned[level]!)
    // A day a year and a cycle earlier is the same question.
    let day = Day(year: 2025, month: 6, day: 1)!
    #expect(
      DailyQuestions.question(for: day, difficulty: level, in: Self.bank)
        == DailyQuestions.question(for: day.advanced(by: 60), difficulty: level, in: Self.bank))
  }

  /// From the day the bank grew, a year of days per difficulty without a repeat: across the
  /// day it grew too (none of the last cycle's questions comes back within a year), across the
  /// end of a cycle, and in every later cycle.
  @Test(arguments: Difficulty.allCases)
  func aYearOfDailyQuestionsWithoutARepeat(_ level: Difficulty) throws {
    let grew = Day(year: 2026, month: 11, day: 28)!
    let count = Self.bank.matching(difficulty: level, category: nil).count
    #expect(count >= 365)
    let schedule = DailyQuestions.Schedule(difficulty: level, bank: Self.bank)
    for start in [grew.advanced(by: -60), grew, grew.advanced(by: 200), grew.advanced(by: 3 * count - 17)] {
      let keys = (0..<count).compactMap { schedule.question(for: start.advanced(by: $0))?.key }
      #expect(keys.count == count && Set(keys).count == count, "from \(start.iso)")
    }
    // Every question of the difficulty has its day in the first cycle.
    let cycle = Set((0..<count).compactMap { schedule.question(for: grew.advanced(by: $0))?.key })
    #expect(cycle == Set(Self.bank.matching(difficulty: level, category: nil).map(\.key)))
  }

  /// Editions in a bank of a test's own: the days before a later edition are the first's
  /// alone, and the days from it go through the bigger bank, the last cycle's questions last.
  @Test func aLaterEditionKeepsTheDaysBeforeIt() {
    func question(_ n: Int, from: Day?) -> TriviaQuestion {
      TriviaQuestion(
        category: "Test", difficulty: .easy, text: "Question \(n)?", correct: "Yes \(n)",
        incorrect: ["a1", "b1", "c1"],
        dailyFrom: from)
    }
    let grew = Day(year: 2030, month: 1, day: 1)!
    let old = QuestionBank((0..<5).map { question($0, from: nil) })
    let grown = QuestionBank(old.questions + (5..<12).map { question($0, from: grew) })
    let before = (-40..<0).map { grew.advanced(by: $0) }
    #expect(
      before.map { DailyQuestions.question(for: $0, difficulty: .easy, in: grown) }
        == before.map { DailyQuestions.question(for: $0, difficulty: .easy, in: old) })
    let after = (0..<12).compactMap {
      DailyQuestions.question(for: grew.advanced(by: $0), difficulty: .easy, in: grown)
    }
    #expect(Set(after.map(\.key)).count == 12)
    // The first edition's last five days, in the same order, close the new cycle.
    #expect(
      Array(after.suffix(5)).map(\.key)
        == (1...5).reversed().compactMap {
          DailyQuestions.question(for: grew.advanced(by: -$0), difficulty: .easy, in: old)?.key
        })
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

  /// A category by its name, its start, a word's start, or that but for a plural `s`; in the
  /// twelve categories of the grown bank.
  @Test(
    arguments: [
      ("maths", "Mathematics"), ("sports", "Sport"), ("film", "Film & Television"), ("tv", "Film & Television"),
      ("film and tv", "Film & Television"),
      ("cooking", nil),
      ("science and nature", "Science & Nature"), ("nature", "Science & Nature"), ("food", "Food & Drink"),
      ("general", "General Knowledge"), ("music", "Music"), ("tech", "Technology"),
    ] as [(String, String?)])
  func aCategoryByItsName(_ name: String, _ expected: String?) {
    let span = SourceSpan(0, name.utf8.count)
    do {
      let found = try QuizOptions.category(named: name, at: span, in: Self.bank)
      #expect(found == expected)
    } catch {
      #expect(expected == nil, "\(error.message)")
      // What is not a category lists every one.
      #expect(error.hint == "the categories: " + Self.bank.categories.map(\.name).joined(separator: ", "))
    }
  }

  /// A name by its last words, when only one answer has them (not by its first: `david` for
  /// David Bowie or `soft` for Soft and loud would give too much away; a question lists those
  /// it takes, such as Napoleon, as other ways of typing its answer).
  @Test(
    arguments: [
      ("napoleon", nil), ("Bonaparte", 0), ("louis", nil), ("xiv", 3), ("charlemagne", 2), ("na", nil),
    ] as [(String, Int?)])
  func aNameByItsLastWords(_ input: String, _ expected: Int?) {
    let question = TriviaQuestion(
      category: "History", difficulty: .easy, text: "Who lost at Waterloo?", correct: "Napoleon Bonaparte",
      incorrect: ["Louis XVI", "Charlemagne", "Louis XIV"])
    var random = SeededRandom(seed: 0)
    let choices = Choices(copying: Choices(question, random: &random), answers: question.answers)
    #expect(choices.pick(input) == (expected.map { .answer($0) } ?? .none))
  }

  /// NumberWords alone: English's numbers, and nothing else.
  @Test(
    arguments: [
      (["twenty", "one"], 21), (["a", "hundred", "and", "one"], 101), (["ninety", "nine", "thousand"], 99_000),
      (["zero"], 0), (["and"], nil), (["twenty", "and", "one"], nil), (["one", "and", "hundred"], nil),
      (["one", "hundred", "and", "thousand"], nil), (["five", "six"], nil), (["eleven", "hundred"], nil),
    ] as [([String], Int?)])
  func numberWords(_ words: [String], _ expected: Int?) {
    #expect(NumberWords.value(words) == expected)
  }

  /// The bank's other way of typing an answer, with a number: 1 is 1 year, not the wrong 1 day.
  @Test func aNumberCountsTheAcceptedAnswersToo() {
    let question = TriviaQuestion(
      category: "Space", difficulty: .easy, text: "How long is Earth's orbit?", correct: "365 days",
      incorrect: ["1 day", "1 month", "30 days"], accepted: ["1 year", "a year"])
    var random = SeededRandom(seed: 0)
    let choices = Choices(copying: Choices(question, random: &random), answers: question.answers)
    #expect(choices.pick("1") == .none)
    #expect(choices.pick("one year") == .answer(0))
    #expect(choices.pick("365") == .answer(0))
  }

  /// A letter that is also a word of an answer is asked about (Vitamin D: is `d` the letter?).
  @Test func aLetterThatIsAWordOfAnAnswerIsAskedAbout() {
    let question = TriviaQuestion(
      category: "Body", difficulty: .easy, text: "Which vitamin does skin make in sunlight?", correct: "Vitamin D",
      incorrect: ["Vitamin C", "Vitamin A", "Vitamin K"])
    var random = SeededRandom(seed: 0)
    let choices = Choices(copying: Choices(question, random: &random), answers: question.answers)
    #expect(choices.pick("d") == .ambiguous(letter: "d"))
    #expect(choices.pick("d)") == .answer(3))
    #expect(choices.pick("vitamin d") == .answer(0))
  }

  /// Issue 30: another way of typing the right answer that the bank accepts, and numbers in
  /// words or digits either way.
  @Test(
    arguments: [
      ("USA", 0), ("united states of america", 0), ("  usa ", 0), ("Mexico", 1), ("canada", 2), ("us", 0),
      ("america", 0), ("mexican", nil),
    ] as [(String, Int?)])
  func anAcceptedAnswerPicksTheRightOne(_ input: String, _ expected: Int?) {
    let question = TriviaQuestion(
      category: "Places", difficulty: .easy, text: "Which country has the state of Ohio?", correct: "United States",
      incorrect: ["Mexico", "Canada", "Brazil"], accepted: ["USA", "US", "United States of America"])
    var random = SeededRandom(seed: 0)
    let choices = Choices(copying: Choices(question, random: &random), answers: question.answers)
    #expect(choices.pick(input) == (expected.map { .answer($0) } ?? .none))
  }

  @Test(
    arguments: [
      ("eight", ["8", "6", "10", "12"], 0), ("Eight", ["8", "6", "10", "12"], 0),
      ("twelve", ["8", "6", "10", "12"], 3),
      ("8", ["Eight", "Six", "Ten", "Twelve"], 0), ("ten", ["Eight", "Six", "Ten", "Twelve"], 2),
      ("three hundred thousand", ["300,000", "3,000", "30,000", "3,000,000"], 0),
      ("three million", ["300,000", "3,000", "30,000", "3,000,000"], 3),
      ("two hundred and six", ["206", "186", "236", "256"], 0), ("two hundred six", ["206", "186", "236", "256"], 0),
      ("twenty-one", ["21", "12", "20", "31"], 0), ("a thousand", ["1,000", "100", "10", "10,000"], 0),
      ("one thousand and sixty-six", ["1066", "1067", "1065", "1166"], 0),
      ("two thousand and twenty", ["2020", "2002", "2200", "20"], 0),
      ("22", ["22 yards", "20 yards", "18 yards", "24 yards"], 0),
      ("twenty-two", ["22 yards", "20 yards", "18 yards", "24 yards"], 0),
      ("3", ["3 hours", "3 minutes", "5 minutes", "8 hours"], nil),
      ("eleven", ["8", "6", "10", "12"], nil), ("five six", ["56", "11", "30", "65"], nil),
      ("and", ["8", "6", "10", "12"], nil), ("7", ["7.26 kg", "6.5 kg", "8 kg", "5 kg"], nil),
      ("7.26", ["7.26 kg", "6.5 kg", "8 kg", "5 kg"], 0), ("42", ["42.195 km", "40 km", "45 km", "50 km"], nil),
      ("180 degrees", ["180°", "90°", "270°", "360°"], 0),
      ("eight minutes", ["8 minutes", "8 hours", "1 day", "8 s"], 0),
      ("1", ["365 days", "1 day", "1 month", "1 week"], nil), ("the andes", ["Andes", "Alps", "Urals", "Rockies"], 0),
    ] as [(String, [String], Int?)])
  func aNumberInWordsOrDigits(_ input: String, _ answers: [String], _ expected: Int?) {
    let question = TriviaQuestion(
      category: "Numbers", difficulty: .easy, text: "How many?", correct: answers[0], incorrect: Array(answers[1...]))
    var random = SeededRandom(seed: 0)
    let choices = Choices(copying: Choices(question, random: &random), answers: question.answers)
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

  /// A saved time that no challenge can have (Int64's greatest or least, from a damaged or
  /// edited file) is taken within the hour: the challenge resumes out of time, or from 0:00,
  /// and nothing overflows.
  @Test func aSavedTimeAtTheLimitsIsTakenWithinTheHour() throws {
    for (elapsed, expected) in [(Int64.max, "✗ Time's up (60:00): the answer is "), (Int64.min, nil)] {
      let clock = ManualClock()
      let store = SQLiteStore.inMemory()
      var session = started(clock, store: store)
      _ = session.handle("quit")
      var saved = try #require(
        try store.read(DailyChallenges.Days(profile: "ada", from: clock.today(), through: clock.today())).first)
      saved.elapsedMilliseconds = elapsed
      _ = try store.write(DailyChallenges.Save(saved))
      var again = testSession(clock: clock, store: store)
      again.state.builtInQuestions = BuiltInQuestions.bank
      let resumed = plain(again.handle("daily easy"))
      if let expected {
        #expect(resumed.first?.hasPrefix(expected) == true, "\(resumed)")
        #expect(again.isInCalculator)
      } else {
        #expect(resumed.first == "Resuming today's easy challenge at 0:00." && again.prompt == "daily easy 0:00> ")
      }
      _ = again.handle("stats quiz")
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
