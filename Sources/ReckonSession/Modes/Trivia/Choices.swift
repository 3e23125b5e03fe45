/// A question's answers as shown: in an order of their own, labelled a, b, c, d.
struct Choices: Sendable, Hashable {
  let question: TriviaQuestion
  /// The answers in the order shown.
  var answers: [String]

  /// The answers shuffled by `random`; true or false stays in that order.
  init(_ question: TriviaQuestion, random: inout some RandomNumberGenerator) {
    self.question = question
    answers = question.isTrueOrFalse ? Choices.trueFirst(question) : Shuffle.items(question.answers, &random)
  }

  static func trueFirst(_ q: TriviaQuestion) -> [String] {
    Folding.key(q.correct) == "true" ? q.answers : q.answers.reversed()
  }

  static let letters = "abcdefghijklmnopqrstuvwxyz".map(String.init)

  /// `a`–`d` (as many letters as answers).
  var range: String { "a–\(Choices.letters[answers.count - 1])" }

  /// `b) Indian Ocean`.
  func labelled(_ index: Int) -> String { "\(Choices.letters[index])) \(answers[index])" }

  var correctIndex: Int { answers.firstIndex(of: question.correct)! }

  /// What a line picks.
  enum Pick: Equatable {
    case answer(Int)
    case none
    /// A letter that is also an answer's text (answers O, A, AB, B and the line `a`).
    case ambiguous(letter: String)
  }

  /// The answer a line picks: its letter (`b`, `B`, `b)`), or its text, whatever the case and
  /// accents, or another way of typing the right answer the bank accepts (`USA`). A bare letter
  /// that is also one of the answers is ambiguous: `a)` is the letter.
  func pick(_ line: String) -> Pick {
    let folded = Folding.key(line)
    var letter = folded
    let marked = letter.hasSuffix(")")
    if marked { letter.removeLast() }
    if letter.hasPrefix("(") { letter.removeFirst() }
    let byText =
      answers.firstIndex { Folding.key($0) == folded }
      ?? (question.accepted.contains { Folding.key($0) == folded } ? correctIndex : nil) ?? loosely(folded)
    if let index = Choices.letters.prefix(answers.count).firstIndex(of: letter) {
      return byText == nil || marked ? .answer(index) : .ambiguous(letter: letter)
    }
    return byText.map { .answer($0) } ?? .none
  }

  /// An answer typed the way people write it when nothing matches exactly: without its
  /// punctuation, units or thousands separators (`90` for 90°, `300000` for 300,000, `dr
  /// watson` for Dr. Watson), a number in words or digits either way (`eight` for 8, `12` for
  /// Twelve), or by its last or first words (`munch` for Edvard Munch, `napoleon` for Napoleon
  /// Bonaparte), when that fits one answer only.
  /// An answer as `loosely` compares it: folded, its words without punctuation, and a
  /// number in words as its digits (`Three hundred thousand` and `300,000` are `300000`).
  static func looseWords(_ text: String) -> [String] {
    // Commas and apostrophes join (300,000; O'Keeffe); anything else separates (1.5 is 1 5).
    let split = Folding.key(text).split(whereSeparator: {
      !($0.isLetter || $0.isNumber) && $0 != "," && $0 != "'"
    }).map { String($0.filter { $0.isLetter || $0.isNumber }) }.filter { !$0.isEmpty }
    return NumberWords.value(split).map { [String($0)] } ?? split
  }

  func loosely(_ folded: String) -> Int? {
    let words = Choices.looseWords
    let typed = words(folded)
    guard !typed.isEmpty else { return nil }
    let all = answers.map { words($0) }
    let same = all.indices.filter { all[$0] == typed }
    if same.count == 1 { return same[0] }
    if same.isEmpty && question.accepted.contains(where: { words($0) == typed }) { return correctIndex }
    // A number alone for an answer that is that number and a unit (22 for 22 yards).
    if typed.count == 1, typed[0].allSatisfy(\.isNumber) {
      let leading = all.indices.filter { all[$0].first == typed[0] }
      if leading.count == 1 { return leading[0] }
    }
    // Its last words (munch for Edvard Munch) or its first (napoleon for Napoleon Bonaparte).
    let ends = all.indices.filter {
      all[$0].count > typed.count
        && (Array(all[$0].suffix(typed.count)) == typed || Array(all[$0].prefix(typed.count)) == typed)
    }
    // Not when another answer has those words too (Venus, Venus de Milo; Louis XIV, Louis XVI).
    let elsewhere = all.indices.filter { i in !ends.contains(i) && typed.allSatisfy { all[i].contains($0) } }
    return ends.count == 1 && elsewhere.isEmpty && typed.joined().count >= 3 ? ends[0] : nil
  }

  static func ambiguity(_ letter: String) -> String {
    "'\(letter)' is both a letter and an answer: type \(letter)) for the letter, or the other answer's letter."
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
