/// A personality quiz in progress: one question at a time, `back` to change an answer, and
/// at the end the outcome chosen most often (a tie goes to the outcome the quiz declares
/// first), saved to the profile's history.
public struct PersonalityMode: Sendable {
  let quiz: PersonalityQuiz
  /// The questions in the order asked (indexes into `quiz.questions`), and each one's answers
  /// in the order shown (indexes into its answers), shuffled or as written.
  let order: [Int]
  let shown: [[Int]]
  /// The question on screen (an index into `order`).
  var position = 0
  /// The numbers typed at each position (answers as numbered on screen, or the point of a
  /// scale); nil until answered. Kept when going back, so Enter can keep an answer.
  var picks: [[Int]?]

  init(quiz: PersonalityQuiz, shuffle: Bool, random: inout some RandomNumberGenerator) {
    self.quiz = quiz
    let questions = Array(quiz.questions.indices)
    order = shuffle ? Shuffle.items(questions, &random) : questions
    // A scale's answers are in its order: only the others are shuffled.
    shown = order.map { q in
      let answers = Array(quiz.questions[q].answers.indices)
      return shuffle && quiz.questions[q].kind != .scale ? Shuffle.items(answers, &random) : answers
    }
    picks = Array(repeating: nil, count: order.count)
  }

  public var prompt: String { "\(quiz.name) \(position + 1)/\(order.count)> " }

  var question: PersonalityQuiz.Question { quiz.questions[order[position]] }

  func opening(shuffled: Bool) -> [Output] {
    var lines: [Output] = [.heading("\(quiz.title)")]
    if !quiz.description.isEmpty { lines.append(.note(quiz.description)) }
    let mixed = shuffled ? " Questions and answers are shuffled." : ""
    lines.append(
      .note("\(Wording.count(order.count, "question")).\(mixed) back changes the last answer; quit leaves."))
    return lines + current
  }

  /// The question on screen: where it is in the quiz, its text, its answers and how to answer.
  var current: [Output] {
    let total = order.count
    let width = 16
    let filled = position * width / total
    let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
    var lines: [Output] = [.note("Question \(position + 1) of \(total)  \(bar)"), .question(question.text)]
    switch question.kind {
    case .single, .multiple:
      lines.append(.numbered(shown[position].map { question.answers[$0].text }))
    case .scale:
      let scale = question.scale!
      let points = (1...scale.steps).map(String.init).joined(separator: " · ")
      lines.append(.note("  \(scale.low)  \(points)  \(scale.high)"))
    }
    var how = howToAnswer
    if let earlier = picks[position] { how += " You answered \(typed(earlier)): Enter keeps it." }
    lines.append(.note(how))
    return lines
  }

  var howToAnswer: String {
    switch question.kind {
    case .single: "Type the number of one answer."
    case .multiple: "Type the numbers of all that apply (1 3 or 1,3), or none."
    case .scale: "Type a number from 1 (\(question.scale!.low)) to \(question.scale!.steps) (\(question.scale!.high))."
    }
  }

  /// Picks as the user would type them again: `2`, `1 3`, `none`.
  func typed(_ pick: [Int]) -> String {
    pick.isEmpty ? "none" : pick.sorted().map(String.init).joined(separator: " ")
  }

  // MARK: Lines

  mutating func respond(_ line: String, in state: inout SessionState) -> (Reply, done: Bool) {
    let input = line.trimmingSpaces
    switch input.lowercased() {
    case "quit", "done", "exit":
      return (Reply(leave()), true)
    case "help", "?":
      return (Reply([.note(PersonalityMode.help)] + current), false)
    case "back":
      guard position > 0 else { return (Reply([.note("This is the first question: there is no earlier one.")]), false) }
      position -= 1
      return (Reply(current), false)
    case "":
      guard let earlier = picks[position] else { return (Reply([.note(howToAnswer)]), false) }
      return next(earlier, in: &state)
    default:
      switch read(input) {
      case .success(let pick): return next(pick, in: &state)
      case .failure(let why): return (Reply([.note(why.message)]), false)
      }
    }
  }

  struct Why: Error { var message: String }

  /// The numbers a line picks for the question on screen, or why it picks none.
  func read(_ input: String) -> Result<[Int], Why> {
    let q = question
    if let note = Commands.typedInMode(input, here: "Here: \(howToAnswer)") { return .failure(Why(message: note)) }
    if q.kind == .multiple && input.lowercased() == "none" { return .success([]) }
    let pieces = input.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" })
    let count = q.kind == .scale ? q.scale!.steps : q.answers.count
    var numbers: [Int] = []
    for piece in pieces {
      guard let n = Int(piece) else {
        let what = q.kind == .multiple ? "numbers (or none)" : "a number"
        return .failure(Why(message: "'\(piece)' is not a number: type \(what) from 1 to \(count)."))
      }
      guard (1...count).contains(n) else {
        return .failure(
          Why(
            message: "There is no \(n) here: type \(q.kind == .multiple ? "numbers" : "a number") from 1 to \(count)."))
      }
      if !numbers.contains(n) { numbers.append(n) }
    }
    switch q.kind {
    case .single:
      guard numbers.count == 1 else {
        return .failure(Why(message: "Choose one answer: type one number from 1 to \(count)."))
      }
    case .multiple:
      break
    case .scale:
      guard numbers.count == 1 else {
        return .failure(Why(message: "Choose one point of the scale: a number from 1 to \(count)."))
      }
    }
    return .success(numbers)
  }

  /// Keeps `pick` for the question on screen and moves on; after the last one, the result.
  mutating func next(_ pick: [Int], in state: inout SessionState) -> (Reply, done: Bool) {
    picks[position] = pick
    position += 1
    guard position == order.count else { return (Reply(current), false) }
    return (Reply(result(in: &state)), true)
  }

  /// How many answers picked point to each outcome.
  var counts: [Int] {
    var counts = Array(repeating: 0, count: quiz.outcomes.count)
    for (position, pick) in picks.enumerated() {
      let question = quiz.questions[order[position]]
      let answers =
        question.kind == .scale
        ? (pick ?? []).map { question.scale!.answer(at: $0, of: question.answers.count) }
        : (pick ?? []).map { shown[position][$0 - 1] }
      for answer in answers { counts[question.answers[answer].outcome] += 1 }
    }
    return counts
  }

  /// The outcome, its description, the runner-up and the counts; saved to the profile's history.
  mutating func result(in state: inout SessionState) -> [Output] {
    let counts = self.counts
    let total = counts.reduce(0, +)
    guard total > 0 else {
      return [.note("You chose none of the answers, so no outcome stands out: no result, nothing saved.")]
    }
    let ranking = quiz.ranking(counts)
    let winner = quiz.outcomes[ranking[0]]
    let second = ranking.count > 1 && counts[ranking[1]] > 0 ? quiz.outcomes[ranking[1]] : nil
    var lines: [Output] = [.heading("You are: \(winner.name) \(winner.symbol)"), .note(winner.description)]
    let tied = ranking.filter { counts[$0] == counts[ranking[0]] }
    if tied.count > 1 {
      let names = Wording.list(tied.map { quiz.outcomes[$0].name })
      lines.append(
        .note("A tie: \(names) have \(counts[ranking[0]]) each; \(winner.name) comes first in the quiz, so it wins."))
    }
    if let second { lines.append(.note("Runner-up: \(second.name) \(second.symbol)")) }
    lines.append(
      .note(
        ranking.map { "\(quiz.outcomes[$0].name) \(counts[$0])" }.joined(separator: " · ")
          + " (\(Wording.count(total, "answer")) chosen)"))
    let now = state.clock.nowMilliseconds()
    let record = PersonalityRecord(
      profile: state.profile, quiz: quiz.name, title: quiz.title, outcome: winner.name, symbol: winner.symbol,
      runnerUp: second?.name ?? "", takenAt: now, day: state.clock.day(atMilliseconds: now))
    state.save(GameResults.Add(record.gameResult), failure: "the result is not being saved")
    return lines
  }

  /// Leaving before the end: nothing is saved.
  func leave() -> [Output] {
    let answered = picks.compactMap { $0 }.count
    return [
      .note(
        "Left “\(quiz.title)” at question \(position + 1) of \(order.count) "
          + "(\(Wording.count(answered, "answer")) given): no result, nothing saved.")
    ]
  }

  static let help = """
    Answer with numbers: one for a single-answer question, any number for a
    question that says all that apply (1 3 or 1,3, or none), and one point of
    the scale for a scale. back goes to the previous question to change its
    answer (Enter keeps an answer you gave before); quit leaves without a result.
    """
}

extension PersonalityMode: Mode {
  public func prompt(at now: Int64) -> String { prompt }

  public mutating func handle(_ line: String, in state: inout SessionState) -> ModeStep {
    return .after(respond(line, in: &state))
  }

  public mutating func finish(in state: inout SessionState) -> Reply { Reply(leave()) }

  public func completions(isFirstWord: Bool, before: String, state: SessionState) -> [String] {
    isFirstWord ? ["back", "none", "quit", "help"] : []
  }
}
