/// A question's answers as shown: in an order of their own, labelled a, b, c, d.
struct Choices: Sendable, Hashable {
  let question: TriviaQuestion
  /// The answers in the order shown.
  var answers: [String]

  /// The answers shuffled by `random`; true or false stays in that order.
  init(_ question: TriviaQuestion, random: inout some RandomNumberGenerator) {
    self.question = question
    answers = question.isTrueOrFalse ? Choices.trueFirst(question) : Choices.shuffled(question.answers, &random)
  }

  static func trueFirst(_ q: TriviaQuestion) -> [String] {
    Folding.key(q.correct) == "true" ? q.answers : q.answers.reversed()
  }

  /// Fisher–Yates with our own draws, so an order made from a seed is the same with any
  /// version of Swift (the standard library's shuffle may change).
  static func shuffled<T>(_ items: [T], _ random: inout some RandomNumberGenerator) -> [T] {
    var items = items
    var i = items.count - 1
    while i > 0 {
      let j = Int(random.next() % UInt64(i + 1))
      items.swapAt(i, j)
      i -= 1
    }
    return items
  }

  static let letters = ["a", "b", "c", "d", "e", "f"]

  /// `a`–`d` (as many letters as answers).
  var range: String { "a–\(Choices.letters[answers.count - 1])" }

  /// `b) Indian Ocean`.
  func labelled(_ index: Int) -> String { "\(Choices.letters[index])) \(answers[index])" }

  var correctIndex: Int { answers.firstIndex(of: question.correct)! }

  /// The answer a line picks: its letter (`b`, `B`, `b)`), or its text, whatever the case and
  /// accents. Nil when it picks none.
  func pick(_ line: String) -> Int? {
    let folded = Folding.key(line)
    var letter = folded
    if letter.hasSuffix(")") { letter.removeLast() }
    if letter.hasPrefix("(") { letter.removeFirst() }
    if let index = Choices.letters.prefix(answers.count).firstIndex(of: letter) { return index }
    return answers.firstIndex { Folding.key($0) == folded }
  }

  /// The question's opening lines: a header (category, difficulty, and whatever `header` adds),
  /// the question, and its labelled answers.
  func shown(header: String) -> [Output] {
    [
      .note("\(header)\(question.category) · \(question.difficulty.rawValue)"), .question(question.text),
      .choices(answers),
    ]
  }
}

/// Minutes and seconds: `4:07`, `60:00`.
func minutesAndSeconds(_ milliseconds: Int64) -> String {
  let seconds = max(0, milliseconds) / 1000
  let s = seconds % 60
  return "\(seconds / 60):\(s < 10 ? "0" : "")\(s)"
}
