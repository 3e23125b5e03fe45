import ReckonCore

/// A Reckon session: a state machine fed one line at a time.
///
/// `handle` never reads the terminal, the wall clock or a global random generator; whatever
/// it needs comes in through `SessionState`. The executable only reads lines and renders
/// the `Reply`.
public struct Session: Sendable {
  public var state: SessionState
  /// The mode the prompt is in: the calculator, or a mode it started.
  public var mode: any Mode = Commands.homeMode()

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
    return state.takeNotices()
  }

  /// The prompt for the current mode.
  public var prompt: String { mode.prompt(at: state.clock.monotonicMilliseconds()) }

  /// How the prompt loop treats the current mode (history, a live clock on the prompt, …).
  public var input: InputPolicy { mode.input }

  /// Whether the prompt is the calculator's (not inside a drill or another mode).
  public var isInCalculator: Bool { mode.input.isCalculator }

  /// A second has passed while a line is being typed. A running daily challenge saves its
  /// time (so even `kill -9` loses at most the last second of it) and, at 60:00, is over:
  /// the reply says so. An anagram whose time is up is shown, and the next one comes.
  public mutating func tick() -> Reply {
    guard mode.input.promptIsLive else { return Reply() }
    return withPending(take(mode.tick(in: &state)))
  }

  /// Moves to the mode a step leads to, and gives its reply.
  private mutating func take(_ step: ModeStep) -> Reply {
    switch step {
    case .stay: break
    case .leave: mode = Commands.homeMode()
    case .enter(let next, _): mode = next
    }
    return step.reply
  }

  /// `reply` after the notices (`SessionState.takeNotices`): what the store and the session's
  /// saves and reads have to say that nobody has shown yet. A line that opened the database
  /// for the first time (`profile`, `stats`, `daily`) may have found it damaged and moved it
  /// aside, an answer may not have been saved: the user hears of it with that line, first.
  private mutating func withPending(_ reply: Reply) -> Reply {
    var notices = state.takeNotices()
    if !builtInProblemSaid, let problem = BuiltInContent.problem {
      builtInProblemSaid = true
      notices.append(.warning(problem))
    }
    guard !notices.isEmpty else { return reply }
    var reply = reply
    reply.outputs = notices + reply.outputs
    return reply
  }

  /// Whether `BuiltInContent.problem` has been said (once a session).
  private var builtInProblemSaid = false

  /// Handles one line of input.
  public mutating func handle(_ line: String) -> Reply {
    if line.utf8.count > Session.maxLineBytes { return Session.tooLong(bytes: line.utf8.count) }
    let step = mode.handle(line, in: &state)
    return withPending(take(step))
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
  /// `endingSession` false is Ctrl-D at the prompt of a mode, which ends the mode and goes
  /// back to the calculator: the saves after it need not wait as the session's last ones do.
  public mutating func finish(endingSession: Bool = true) -> Reply {
    if endingSession { state.store?.willEnd() }
    let reply = mode.finish(in: &state)
    mode = Commands.homeMode()
    state.saveWhatWasKept()
    return withPending(reply)
  }

  /// Completions for the word that ends `textBeforeCursor`: the mode's (the calculator's
  /// commands, functions, constants and variables; a drill's few words).
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
    let candidates = mode.completions(isFirstWord: isFirstWord, before: before, state: state)
    return Array(Set(candidates.filter { $0.hasPrefix(word) })).sorted()
  }
}
