/// How hard a trivia question is.
public enum Difficulty: String, CaseIterable, Sendable, Hashable, Comparable {
  case easy, medium, hard

  public static func < (a: Difficulty, b: Difficulty) -> Bool {
    allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
  }
}

/// One multiple-choice question: one right answer and one to three wrong ones (three for a
/// bank's own questions; one for a true-or-false question from Open Trivia DB).
public struct TriviaQuestion: Sendable, Hashable {
  public var category: String
  public var difficulty: Difficulty
  public var text: String
  public var correct: String
  public var incorrect: [String]
  /// Other ways to type the right answer (`USA` for United States), from a bank's `accepted`
  /// column: never shown, and not part of the question's keys.
  public var accepted: [String]
  /// The first day the question may be a daily challenge: nil for the first built-in bank's
  /// and everyone else's; the built-in questions added later have the day they were added
  /// (`DailyQuestions`).
  public var dailyFrom: Day?
  /// The name the store keeps the question's answers under, so that it is known again when
  /// a file is read again: 16 hex digits of the folded text (however it is spelt or spaced),
  /// as every question's was before two questions could share a text. A question whose text
  /// a bank already has, with other answers, is kept under 16 hex digits of its text and
  /// answers instead (`answersKey`, given by `QuestionBank.place`), so the built-in bank's
  /// keys, and every key already saved, stay as they were.
  public internal(set) var key: String
  /// The hash of the folded text, whose 16 hex digits are the first key tried.
  let textHash: UInt64

  public init(
    category: String, difficulty: Difficulty, text: String, correct: String, incorrect: [String],
    accepted: [String] = [], dailyFrom: Day? = nil
  ) {
    self.category = category
    self.difficulty = difficulty
    self.text = text
    self.correct = correct
    self.incorrect = incorrect
    self.accepted = accepted
    self.dailyFrom = dailyFrom
    textHash = StableHash.of(Folding.key(text))
    key = StableHash.hex(textHash)
  }

  public static func key(for text: String) -> String { StableHash.hex(StableHash.of(Folding.key(text))) }

  /// 16 hex digits of the folded text, the folded right answer and the folded wrong ones in
  /// the order of their folded text: the same for the same question with the same answers,
  /// in any order, case or spacing.
  var answersKey: String {
    var hash = StableHash()
    hash.add(Folding.key(text))
    hash.add(Folding.key(correct))
    for wrong in incorrect.map({ Folding.key($0) }).sorted() { hash.add(wrong) }
    return StableHash.hex(hash.value)
  }

  /// Every answer, the right one first.
  public var answers: [String] { [correct] + incorrect }

  /// True or false: answers shown in that order rather than shuffled.
  public var isTrueOrFalse: Bool {
    incorrect.count == 1 && Set([Folding.key(correct), Folding.key(incorrect[0])]) == ["true", "false"]
  }
}

/// The questions a session can ask: the built-in bank and whatever was loaded, each question
/// once. The same question is the same text with the same answers; the same text with other
/// answers ("Which of these cities is in Germany?") is another question.
public struct QuestionBank: Sendable {
  public private(set) var questions: [TriviaQuestion] = []
  private var positions: [String: Int] = [:]

  public init(_ questions: [TriviaQuestion] = []) {
    reserve(questions.count)
    for question in questions { add(question) }
  }

  /// Where a question goes among others (`lookup` finds a question by its key).
  public enum Placement: Sendable, Equatable {
    /// It is new: here it is with the key it is kept under.
    case new(TriviaQuestion)
    /// The same question with the same answers is there already.
    case duplicate(of: TriviaQuestion)
  }

  /// The one rule for keys: a question takes its text's key, unless a question with that
  /// text and other answers has it, in which case it takes its text's and answers' key. Read
  /// again in the same order, the same questions get the same keys.
  static func place(_ question: TriviaQuestion, lookup: (String) -> TriviaQuestion?) -> Placement {
    var keyed = question
    keyed.key = StableHash.hex(question.textHash)
    guard let first = lookup(keyed.key) else { return .new(keyed) }
    let answersKey = question.answersKey
    if first.answersKey == answersKey { return .duplicate(of: first) }
    keyed.key = answersKey
    if let twin = lookup(answersKey) { return .duplicate(of: twin) }
    return .new(keyed)
  }

  /// Adds a question unless the same one (text and answers) is there; returns whether it was
  /// added.
  @discardableResult
  public mutating func add(_ question: TriviaQuestion) -> Bool {
    guard case .new(let keyed) = QuestionBank.place(question, lookup: { self.question(key: $0) }) else {
      return false
    }
    positions[keyed.key] = questions.count
    questions.append(keyed)
    return true
  }

  /// Makes room for `count` more questions.
  public mutating func reserve(_ count: Int) {
    questions.reserveCapacity(questions.count + count)
    positions.reserveCapacity(positions.count + count)
  }

  public func contains(key: String) -> Bool { positions[key] != nil }

  public func question(key: String) -> TriviaQuestion? { positions[key].map { questions[$0] } }

  public var count: Int { questions.count }

  /// The categories, alphabetically, with how many questions each has of each difficulty.
  public var categories: [(name: String, counts: [Difficulty: Int])] {
    var counts: [String: [Difficulty: Int]] = [:]
    var names: [String: String] = [:]
    for q in questions {
      let key = Folding.key(q.category)
      names[key] = names[key] ?? q.category
      counts[key, default: [:]][q.difficulty, default: 0] += 1
    }
    return counts.keys.sorted().map { (names[$0]!, counts[$0]!) }
  }

  /// The questions of a difficulty (any, if nil) and category (any, if nil; compared folded).
  public func matching(difficulty: Difficulty?, category: String?) -> [TriviaQuestion] {
    let folded = category.map { Folding.key($0) }
    return questions.filter {
      (difficulty == nil || $0.difficulty == difficulty) && (folded == nil || Folding.key($0.category) == folded)
    }
  }
}
