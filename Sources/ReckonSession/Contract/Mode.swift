/// The contract of a mode: what the prompt is in front of. The calculator is one; a drill, a
/// quiz, a daily challenge, a personality quiz and an anagram round are the others. The
/// session holds the current one as `any Mode` and asks it, instead of asking which one it is.
///
/// A mode is a value: it holds its own progress and is handed the `SessionState` everybody
/// shares (variables, settings, profile, clock, randomness, stores), so leaving a mode leaves
/// the calculator exactly as it was.
public protocol Mode: Sendable {
  /// The prompt, as of `now` (the clock's monotonic reading: a clock on it changes every second).
  func prompt(at now: Int64) -> String
  /// Handles one line typed at the prompt.
  mutating func handle(_ line: String, in state: inout SessionState) -> ModeStep
  /// A second has passed while a line is being typed: only called while `input.promptIsLive`.
  mutating func tick(in state: inout SessionState) -> ModeStep
  /// The end of input (Ctrl-D, the end of a file): the mode ends and may say goodbye.
  mutating func finish(in state: inout SessionState) -> Reply
  /// The words Tab offers for the word being typed, which follows `before` on the line.
  func completions(isFirstWord: Bool, before: String, state: SessionState) -> [String]
  /// How the prompt loop treats this mode.
  var input: InputPolicy { get }
}

extension Mode {
  public mutating func tick(in state: inout SessionState) -> ModeStep { .stay(Reply()) }
  public var input: InputPolicy { InputPolicy() }
}

/// What handling a line (or a tick) leads to.
public enum ModeStep: Sendable {
  /// The mode goes on.
  case stay(Reply)
  /// The mode is over: the calculator takes the prompt back.
  case leave(Reply)
  /// Another mode takes the prompt (the calculator's `drill` starts a drill).
  case enter(any Mode, Reply)

  public var reply: Reply {
    switch self {
    case .stay(let r), .leave(let r), .enter(_, let r): r
    }
  }

  /// A mode's answer to a line or a tick, as its own code gives it: the reply, and whether
  /// the mode is over (`.leave`) or goes on (`.stay`).
  public static func after(_ outcome: (reply: Reply, done: Bool)) -> ModeStep {
    outcome.done ? .leave(outcome.reply) : .stay(outcome.reply)
  }
}

/// How the prompt loop (the executable) treats a mode's lines and its prompt.
public struct InputPolicy: Sendable, Equatable {
  /// The calculator's lines: kept in history, and Ctrl-D leaves Reckon (in another mode it
  /// ends the mode). Replies to a script are flushed in batches.
  public var isCalculator = false
  /// A clock on the prompt: it is drawn again, and the mode ticked, every second.
  public var promptIsLive = false
  /// When a tick moves on (a word's time is up), what was being typed answered what has
  /// gone, and is thrown away.
  public var dropsTypedTextOnTick = false

  public init(isCalculator: Bool = false, promptIsLive: Bool = false, dropsTypedTextOnTick: Bool = false) {
    self.isCalculator = isCalculator
    self.promptIsLive = promptIsLive
    self.dropsTypedTextOnTick = dropsTypedTextOnTick
  }
}
