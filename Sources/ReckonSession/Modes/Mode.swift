/// The mode the prompt is in. Each mode is a value with its own `handle`; the shared state
/// lives in `SessionState`, so leaving a mode leaves the calculator exactly as it was.
public enum Mode: Sendable {
  case calculator(CalculatorMode)
  case drill(DrillMode)

  public var prompt: String {
    switch self {
    case .calculator: "reckon> "
    case .drill(let drill): drill.prompt
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
    }
  }

  /// The end of input: a drill says its summary and the calculator takes over.
  mutating func finish(in state: inout SessionState) -> Reply {
    switch self {
    case .calculator: return Reply()
    case .drill(let drill):
      self = .calculator(CalculatorMode())
      return Reply(drill.summary(now: state.clock.nowMilliseconds()))
    }
  }

  func completionWords(isFirstWord: Bool, before: String) -> [String] {
    switch self {
    case .calculator: CalculatorMode.completionWords(isFirstWord: isFirstWord, before: before)
    case .drill: isFirstWord ? ["quit", "done", "skip", "help", "stats"] : []
    }
  }
}
