import ReckonCore

/// The trivia quiz: a round of multiple-choice questions, each answered by its letter or its
/// text, saved as it is answered, with a summary at the end. Questions this profile has been
/// asked least come first, so none comes back before all that match have been asked.
public struct QuizMode: Sendable {
  static let storeMode = "quiz"

  let options: QuizOptions
  let questions: [TriviaQuestion]
  /// The question on screen (an index into `questions`), its answers as shown, and when it
  /// appeared.
  var index = 0
  var choices: Choices
  var shownAt: Int64
  var right = 0
  var answered = 0
  var missed: [Choices] = []
  var answering: Int64 = 0
  /// When the round started, and (`shownAt`) the question: monotonic readings, for durations.
  let startedAt: Int64

  /// A round of `questions` (at least one).
  init(options: QuizOptions, questions: [TriviaQuestion], state: inout SessionState) {
    self.options = options
    self.questions = questions
    startedAt = state.clock.monotonicMilliseconds()
    shownAt = startedAt
    choices = Choices(questions[0], random: &state.random)
  }

  /// The round's questions: those matching the options that this profile has answered
  /// fewest times, in random order among equals.
  static func pick(_ options: QuizOptions, from bank: QuestionBank, in state: inout SessionState) -> (
    [TriviaQuestion], [Output]
  ) {
    // Today's daily questions stay out of quizzes: a quiz must not give their answers away.
    let today = state.clock.today()
    let daily = Set(
      Difficulty.allCases.compactMap {
        DailyQuestions.question(for: today, difficulty: $0, in: state.trivia.dailyBank)?.key
      })
    let candidates = bank.matching(difficulty: options.difficulty, category: options.category).filter {
      !daily.contains($0.key)
    }
    var asked: [String: ItemTotals] = [:]
    var outputs: [Output] = []
    if let store = state.store {
      do {
        asked = try store.read(Answers.Totals(profile: state.profile, mode: storeMode))
      } catch {
        outputs.append(.warning("the questions asked before could not be read: \(error.message)"))
      }
    }
    let shuffled = Shuffle.items(candidates, &state.random)
    let ranked = shuffled.enumerated().sorted {
      let (a, b) = (asked[$0.element.key]?.answered ?? 0, asked[$1.element.key]?.answered ?? 0)
      return a != b ? a < b : $0.offset < $1.offset
    }
    return (ranked.prefix(options.count).map(\.element), outputs)
  }

  public var prompt: String { "quiz \(index + 1)/\(questions.count)> " }

  func opening(profile: String, requested: Int) -> [Output] {
    var shown = options
    shown.count = questions.count
    var lines: [Output] = [.note("Quiz for \(profile): \(shown.label).")]
    if questions.count < requested {
      let match = questions.count == 1 ? "only 1 question matches" : "only \(questions.count) questions match"
      lines.append(.note("You asked for \(requested), but \(match)."))
    }
    lines.append(.note("Answer with a letter or the answer itself; skip, help, quit."))
    return lines + current
  }

  var current: [Output] { choices.shown(header: "\(index + 1)/\(questions.count) · ") }

  // MARK: Lines

  mutating func respond(_ line: String, in state: inout SessionState) -> (Reply, done: Bool) {
    let input = line.trimmingSpaces
    switch input.lowercased() {
    case "quit", "done", "exit":
      return (Reply(summary(now: state.clock.monotonicMilliseconds())), true)
    case "help", "?":
      return (Reply([.note(QuizMode.help(choices.range))] + current), false)
    case "stats":
      shownAt = state.clock.monotonicMilliseconds()
      return (Reply(TriviaStatistics.report(for: state) + current), false)
    case "skip":
      return answer(nil, given: "", state: &state)
    case "":
      return (Reply([.note("Type \(choices.range) or the answer (or skip, quit).")]), false)
    default:
      switch choices.pick(input) {
      case .answer(let pick): return answer(pick, given: choices.answers[pick], state: &state)
      case .ambiguous(let letter): return (Reply([.note(Choices.ambiguity(letter))]), false)
      case .none: return (Reply([.note(notAnAnswer(input, choices))]), false)
      }
    }
  }

  /// Scores the answer picked (nil: skipped), saves it, and moves on.
  mutating func answer(_ pick: Int?, given: String, state: inout SessionState) -> (Reply, done: Bool) {
    let now = state.clock.monotonicMilliseconds()
    let elapsed = now - shownAt
    let correct = pick == choices.correctIndex
    answered += 1
    answering += elapsed
    var outputs: [Output]
    let time = Durations.seconds(elapsed)
    if correct {
      right += 1
      outputs = [.feedback(correct: true, "✓ \(choices.labelled(choices.correctIndex))  (\(time))")]
    } else {
      missed.append(choices)
      let what = pick == nil ? "Skipped: the" : "✗ The"
      outputs = [
        .feedback(correct: false, "\(what) answer is \(choices.labelled(choices.correctIndex))  (\(time))")
      ]
    }
    // Saved before the next question appears. A skipped question counts as asked (and wrong).
    state.record(
      mode: QuizMode.storeMode, item: choices.question.key, given: given, correct: correct, milliseconds: elapsed,
      category: choices.question.category, difficulty: choices.question.difficulty.rawValue)
    index += 1
    guard index < questions.count else { return (Reply(outputs + summary(now: now)), true) }
    choices = Choices(questions[index], random: &state.random)
    shownAt = now
    return (Reply(outputs + current), false)
  }

  func summary(now: Int64) -> [Output] {
    guard answered > 0 else { return [.note("Quiz over: no questions answered.")] }
    var lines: [Output] = [
      .note(
        "Quiz over: \(right) of \(answered) right (\(Wording.percent(right, of: answered))) in "
          + "\(Durations.minutesAndSeconds(now - startedAt)), \(Durations.seconds(answering / Int64(answered))) a question."
      )
    ]
    if !missed.isEmpty {
      lines.append(.note("Missed:"))
      lines += missed.map { .note("  \($0.question.text) — \($0.question.correct)") }
    }
    return lines
  }

  static func help(_ range: String) -> String {
    """
    Type the letter of an answer (\(range)) or the answer itself, whatever its
    case or accents, a surname for a name (munch), a number in digits or words
    (8 or eight, with or without its unit): ✓, or ✗ with the right answer and
    the time you took.
    skip moves on (it counts as wrong); stats shows your quiz progress; quit
    (or Ctrl-D) ends the round with a summary.
    """
  }
}

/// What to say to a line that picks no answer; a calculator command gets a word on how to
/// get back to the calculator.
func notAnAnswer(_ input: String, _ choices: Choices, commands: String = "skip, quit") -> String {
  if let note = Commands.typedInMode(input, here: "Here, type \(choices.range) or the answer.") { return note }
  // A long line is shown by its ends (a pasted page is not echoed back whole).
  return "\(Diagnostic.quoted(input)) is not one of the answers: type \(choices.range), or \(commands)."
}

extension QuizMode: Mode {
  public func prompt(at now: Int64) -> String { prompt }

  public mutating func handle(_ line: String, in state: inout SessionState) -> ModeStep {
    return .after(respond(line, in: &state))
  }

  public mutating func finish(in state: inout SessionState) -> Reply {
    Reply(summary(now: state.clock.monotonicMilliseconds()))
  }

  public func completions(isFirstWord: Bool, before: String, state: SessionState) -> [String] {
    isFirstWord ? ["quit", "done", "skip", "help", "stats"] : []
  }
}
