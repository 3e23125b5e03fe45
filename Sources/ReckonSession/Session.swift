import ReckonCore

/// A Reckon session: a state machine fed one line at a time.
///
/// `handle` never reads the terminal, the wall clock or a global random generator; whatever
/// it needs comes in through `SessionState`. The executable only reads lines and renders
/// the `Reply`.
public struct Session: Sendable {
  public var state: SessionState
  /// The mode the prompt is in.
  public var mode: Mode = .calculator(CalculatorMode())

  /// Lines longer than this (in bytes) are refused.
  public static let maxLineBytes = 65_536

  public init(clock: any Clock, random: any RandomSource, store: (any Store)? = nil, profile: String = "default") {
    state = SessionState(clock: clock, random: random, store: store, profile: profile)
  }

  /// A session whose profile is `profile()`, worked out when it is first needed.
  public init(
    clock: any Clock, random: any RandomSource, store: (any Store)?,
    lazyProfile profile: @escaping @Sendable () -> String
  ) {
    state = SessionState(clock: clock, random: random, store: store, lazyProfile: profile)
  }

  /// Reads the profile's saved settings from the store now, rather than when a line first
  /// needs them (the prompt does, so that what the read has to say comes first); a problem is
  /// returned as a warning and the defaults stay.
  public mutating func restoreSettings() -> [Output] {
    state.loadSettings()
  }

  /// The prompt for the current mode.
  public var prompt: String { mode.prompt(at: state.clock.nowMilliseconds()) }

  /// Whether the prompt shows a running clock, and so is worth drawing again each second.
  public var promptIsLive: Bool {
    switch mode {
    case .daily(let daily): daily.isRunning
    case .anagram: true
    default: false
    }
  }

  /// Whether the prompt counts down a word's time (the anagram game).
  public var isCountingDown: Bool {
    if case .anagram = mode { return true }
    return false
  }

  /// Whether the prompt is the calculator's (not inside a drill or another mode).
  public var isInCalculator: Bool {
    if case .calculator = mode { return true }
    return false
  }

  /// A second has passed while a line is being typed. A running daily challenge saves its
  /// time (so even `kill -9` loses at most the last second of it) and, at 60:00, is over:
  /// the reply says so. An anagram whose time is up is shown, and the next one comes.
  public mutating func tick() -> Reply {
    switch mode {
    case .daily(var daily):
      let (reply, done) = daily.tick(in: &state)
      mode = done ? .calculator(CalculatorMode()) : .daily(daily)
      return withPending(reply)
    case .anagram(var round):
      let (reply, done) = round.tick(in: &state)
      mode = done ? .calculator(CalculatorMode()) : .anagram(round)
      return withPending(reply)
    default:
      return Reply()
    }
  }

  /// `reply` after whatever the session kept for the next reply (the settings' read) and
  /// whatever the store has to say that nobody has shown yet: a line that opened the database
  /// for the first time (`profile`, `stats`, `daily`) may have found it damaged and moved it
  /// aside, and the user hears of it with that line.
  private mutating func withPending(_ reply: Reply) -> Reply {
    let opening = state.store?.takeWarnings() ?? []
    guard !state.pending.isEmpty || !opening.isEmpty else { return reply }
    var reply = reply
    reply.outputs = state.takePending() + opening.map { .warning($0) } + reply.outputs
    return reply
  }

  /// Handles one line of input.
  public mutating func handle(_ line: String) -> Reply {
    if line.utf8.count > Session.maxLineBytes { return Session.tooLong(bytes: line.utf8.count) }
    var current = mode
    let reply = current.handle(line, in: &state)
    mode = current
    return withPending(reply)
  }

  /// The answer to a line over `maxLineBytes`, which is not looked at: nothing changes. A
  /// reader that stops at the limit does not know the line's whole length (nil).
  public static func tooLong(bytes: Int?) -> Reply {
    let message =
      if let bytes {
        "the line is too long (\(bytes.grouped) bytes; the limit is \(maxLineBytes.grouped))"
      } else {
        "the line is too long (over the limit of \(maxLineBytes.grouped) bytes); it is skipped to its end"
      }
    return .error(Diagnostic(message, at: SourceSpan(0, 0)), "")
  }

  /// The end of input (Ctrl-D or the end of a piped file): a mode may want to say goodbye.
  public mutating func finish() -> Reply {
    var current = mode
    var reply = current.finish(in: &state)
    mode = current
    reply.outputs += state.saveWhatWasKept()
    return withPending(reply)
  }

  /// Completions for the word that ends `textBeforeCursor`: commands (as a first word),
  /// functions, constants, variables.
  public func completions(for textBeforeCursor: String) -> [String] {
    // The word is the trailing run of name characters, with a final + or - kept for m+ / m-.
    let scalars = Array(textBeforeCursor.unicodeScalars)
    let isNameCharacter = { (c: Unicode.Scalar) in c == "_" || c.properties.isAlphabetic || ("0"..."9").contains(c) }
    var start = scalars.count
    if let last = scalars.last, last == "+" || last == "-" { start -= 1 }
    while start > 0 && isNameCharacter(scalars[start - 1]) { start -= 1 }
    if start == scalars.count - 1 && (scalars.last == "+" || scalars.last == "-") { start = scalars.count }
    let word = String(String.UnicodeScalarView(scalars[start...]))
    let before = String(String.UnicodeScalarView(scalars[..<start]))
    let isFirstWord = before.allSatisfy { $0 == " " || $0 == "\t" }
    var candidates = mode.completionWords(isFirstWord: isFirstWord, before: before)
    let words = before.split(whereSeparator: { $0 == " " || $0 == "\t" })
    if !isInCalculator {
      // A drill's answers are numbers: only its own words complete.
    } else if words.count == 1 && words[0] == "profile" {
      candidates = ((try? state.store?.profiles()) ?? []).map(\.name)
    } else if words.count == 1 && words[0] == "personality" {
      candidates = state.personalityQuizzes.map(\.name) + ["load"]
    } else if candidates.isEmpty || isFirstWord {
      // Functions complete with their "(", ready for the argument.
      candidates += Builtins.functionNames.map { $0 + "(" } + Builtins.constantNames
      candidates += state.environment.variables.keys
      if state.environment.answer != nil { candidates.append("ans") }
      candidates.append("to")  // 255 to hex; to hex alone converts ans
    }
    return Array(Set(candidates.filter { $0.hasPrefix(word) })).sorted()
  }
}
