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
  /// that is also an answer, or a word of one (Vitamin D, A minor), is ambiguous: `d)` is the
  /// letter.
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
      let aWord = answers.contains { Choices.looseWords($0).contains(letter) }
      return (byText == nil && !aWord) || marked ? .answer(index) : .ambiguous(letter: letter)
    }
    return byText.map { .answer($0) } ?? .none
  }

  /// An answer as `loosely` compares it: folded; its words without punctuation (commas and
  /// apostrophes join, as in 300,000 and O'Keeffe; a point between digits too, as in 42.195),
  /// and without `the`, `a`, `an` and `and`; a number in words as its digits (`Three hundred
  /// thousand` and `300,000` are `300000`).
  static func looseWords(_ text: String) -> [String] {
    let scalars = Array(Folding.key(text).unicodeScalars)
    var words: [String] = []
    var word = String.UnicodeScalarView()
    for (i, scalar) in scalars.enumerated() {
      let character = Character(scalar)
      if character.isLetter || character.isNumber {
        word.append(scalar)
      } else if scalar == "." && i > 0 && i + 1 < scalars.count && Character(scalars[i - 1]).isNumber
        && Character(scalars[i + 1]).isNumber
      {
        word.append(scalar)
      } else if scalar != "," && scalar != "'" && !word.isEmpty {
        words.append(String(word))
        word = String.UnicodeScalarView()
      }
    }
    if !word.isEmpty { words.append(String(word)) }
    // A number in words, alone or before a unit (eight minutes is 8 minutes).
    for count in stride(from: words.count, through: 1, by: -1) {
      if let number = NumberWords.value(Array(words.prefix(count))) {
        words = [String(number)] + words.dropFirst(count)
        break
      }
    }
    let kept = words.filter { !["the", "a", "an", "and"].contains($0) }
    return kept.isEmpty ? words : kept
  }

  /// The number loose words start with (`8` for 8 minutes or 8′; `looseWords` has made a
  /// number in words digits), or nil.
  static func leadingNumber(_ words: [String]) -> String? {
    guard let first = words.first, first.first?.isNumber == true,
      first.allSatisfy({ $0.isNumber || $0 == "." })
    else { return nil }
    return first
  }

  /// An answer typed the way people write it when nothing matches exactly: without its
  /// punctuation, articles, units or thousands separators (`90` for 90°, `300000` for
  /// 300,000, `dr watson` for Dr. Watson, `the andes` for Andes), a number in words or digits
  /// either way and with or without its unit (`eight` for 8, `12` for Twelve, `180 degrees`
  /// for 180°, `22` for 22 yards), or by its last words (`munch` for Edvard Munch), when that
  /// fits one answer only. The bank's other ways of typing the right answer count as it.
  func loosely(_ folded: String) -> Int? {
    let words = Choices.looseWords
    let typed = words(folded)
    guard !typed.isEmpty else { return nil }
    let all = answers.map { words($0) }
    let accepted = question.accepted.map { words($0) }
    let same = all.indices.filter { all[$0] == typed }
    if same.count == 1 { return same[0] }
    if same.isEmpty && accepted.contains(typed) { return correctIndex }
    // A number, with or without a unit, for the one answer that starts with that number (the
    // right one if one of its other ways does).
    if let number = Choices.leadingNumber(typed) {
      var starting = Set(all.indices.filter { Choices.leadingNumber(all[$0]) == number })
      if accepted.contains(where: { Choices.leadingNumber($0) == number }) { starting.insert(correctIndex) }
      if starting.count == 1 { return starting.first! }
      if !starting.isEmpty { return nil }
    }
    // Its last words (munch for Edvard Munch), of an answer or of another way of typing the
    // right one (haydn for Franz Joseph Haydn).
    func endsWith(_ words: [String]) -> Bool { words.count > typed.count && Array(words.suffix(typed.count)) == typed }
    var ends = Set(all.indices.filter { endsWith(all[$0]) })
    if accepted.contains(where: endsWith) { ends.insert(correctIndex) }
    // Not when another answer has those words too (Venus, Venus de Milo).
    let elsewhere = all.indices.filter { i in !ends.contains(i) && typed.allSatisfy { all[i].contains($0) } }
    return ends.count == 1 && elsewhere.isEmpty && typed.joined().count >= 3 ? ends.first! : nil
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
