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
  /// The same question, however it is spelt or spaced: 16 hex digits of the folded text. The
  /// store keeps answers under it, so a question is known again when a file is reloaded.
  public let key: String

  public init(category: String, difficulty: Difficulty, text: String, correct: String, incorrect: [String]) {
    self.category = category
    self.difficulty = difficulty
    self.text = text
    self.correct = correct
    self.incorrect = incorrect
    key = TriviaQuestion.key(for: text)
  }

  public static func key(for text: String) -> String { StableHash.hex(StableHash.of(Folding.key(text))) }

  /// Every answer, the right one first.
  public var answers: [String] { [correct] + incorrect }

  /// True or false: answers shown in that order rather than shuffled.
  public var isTrueOrFalse: Bool {
    incorrect.count == 1 && Set([Folding.key(correct), Folding.key(incorrect[0])]) == ["true", "false"]
  }
}

/// The questions a session can ask: the built-in bank and whatever was loaded, each question
/// once.
public struct QuestionBank: Sendable {
  public private(set) var questions: [TriviaQuestion] = []
  private var positions: [String: Int] = [:]

  public init(_ questions: [TriviaQuestion] = []) {
    reserve(questions.count)
    for question in questions { add(question) }
  }

  /// Adds a question unless one with the same text is there; returns whether it was added.
  @discardableResult
  public mutating func add(_ question: TriviaQuestion) -> Bool {
    guard positions[question.key] == nil else { return false }
    positions[question.key] = questions.count
    questions.append(question)
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
