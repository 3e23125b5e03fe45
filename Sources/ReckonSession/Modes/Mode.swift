/// The mode the prompt is in. Each mode is a value with its own `handle`; the shared state
/// lives in `SessionState`, so leaving a mode leaves the calculator exactly as it was.
public enum Mode: Sendable {
  case calculator(CalculatorMode)

  public var prompt: String {
    switch self {
    case .calculator: "reckon> "
    }
  }

  mutating func handle(_ line: String, in state: inout SessionState) -> Reply {
    switch self {
    case .calculator(var mode):
      let reply = mode.handle(line, in: &state)
      self = .calculator(mode)
      return reply
    }
  }

  mutating func finish(in state: inout SessionState) -> Reply {
    switch self {
    case .calculator: Reply()
    }
  }

  func completionWords(isFirstWord: Bool, before: String) -> [String] {
    switch self {
    case .calculator: CalculatorMode.completionWords(isFirstWord: isFirstWord, before: before)
    }
  }
}
