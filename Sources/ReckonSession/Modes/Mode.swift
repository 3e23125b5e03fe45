/// The mode the prompt is in. Each mode is a value with its own `handle`; the shared state
/// lives in `SessionState`, so leaving a mode leaves the calculator exactly as it was.
public enum Mode: Sendable {
  case calculator(CalculatorMode)
  case drill(DrillMode)
  case quiz(QuizMode)
  case daily(DailyMode)
  case personality(PersonalityMode)
  case anagram(AnagramMode)

  /// The prompt, as of `now` (a daily challenge's shows its clock).
  public func prompt(at now: Int64) -> String {
    switch self {
    case .calculator: "reckon> "
    case .drill(let drill): drill.prompt
    case .quiz(let quiz): quiz.prompt
    case .daily(let daily): daily.prompt(at: now)
    case .personality(let quiz): quiz.prompt
    case .anagram(let round): round.prompt(at: now)
    }
  }

  mutating func handle(_ line: String, in state: inout SessionState) -> Reply {
    switch self {
    case .calculator(var mode):
      let (reply, next) = mode.handle(line, in: &state)
      self = next ?? .calculator(mode)
      return reply
    case .drill(var drill):
      let (reply, done) = drill.handle(line, in: &state)
      self = done ? .calculator(CalculatorMode()) : .drill(drill)
      return reply
    case .quiz(var quiz):
      let (reply, done) = quiz.handle(line, in: &state)
      self = done ? .calculator(CalculatorMode()) : .quiz(quiz)
      return reply
    case .daily(var daily):
      let (reply, done) = daily.handle(line, in: &state)
      self = done ? .calculator(CalculatorMode()) : .daily(daily)
      return reply
    case .personality(var quiz):
      let (reply, done) = quiz.handle(line, in: &state)
      self = done ? .calculator(CalculatorMode()) : .personality(quiz)
      return reply
    case .anagram(var round):
      let (reply, done) = round.handle(line, in: &state)
      self = done ? .calculator(CalculatorMode()) : .anagram(round)
      return reply
    }
  }

  /// The end of input: a drill says its summary and the calculator takes over.
  mutating func finish(in state: inout SessionState) -> Reply {
    switch self {
    case .calculator: return Reply()
    case .drill(let drill):
      self = .calculator(CalculatorMode())
      return Reply(drill.summary(now: state.clock.nowMilliseconds()))
    case .quiz(let quiz):
      self = .calculator(CalculatorMode())
      return Reply(quiz.summary(now: state.clock.nowMilliseconds()))
    case .daily(var daily):
      self = .calculator(CalculatorMode())
      return Reply(daily.leave(in: &state))
    case .personality(let quiz):
      self = .calculator(CalculatorMode())
      return Reply(quiz.leave())
    case .anagram(var round):
      self = .calculator(CalculatorMode())
      return Reply(round.summary(in: &state))
    }
  }

  func completionWords(isFirstWord: Bool, before: String) -> [String] {
    switch self {
    case .calculator: CalculatorMode.completionWords(isFirstWord: isFirstWord, before: before)
    case .drill: isFirstWord ? ["quit", "done", "skip", "help", "stats"] : []
    case .quiz: isFirstWord ? ["quit", "done", "skip", "help", "stats"] : []
    case .daily: isFirstWord ? ["quit", "pause", "resume", "help"] : []
    case .personality: isFirstWord ? ["back", "none", "quit", "help"] : []
    case .anagram: isFirstWord ? ["hint", "shuffle", "skip", "quit", "help"] : []
    }
  }
}
