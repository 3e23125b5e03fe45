/// One daily challenge: a question with a clock that runs while it is on screen. `pause`
/// stops the clock and hides the question; leaving (quit, Ctrl-D, the end of input, even
/// `kill -9`) keeps it for later the same day with its time. An answer, or 60:00 on the
/// clock, finishes it until the local date changes.
public struct DailyMode: Sendable {
  static let storeMode = "daily"
  /// Reaching this without an answer counts as wrong.
  public static let limit: Int64 = 60 * 60 * 1000

  let difficulty: Difficulty
  let day: Day
  let choices: Choices
  /// Time on screen before `runningSince`.
  var elapsedBefore: Int64
  /// When the clock last started (a monotonic reading: setting the wall clock back cannot
  /// take time off the challenge); nil while paused.
  var runningSince: Int64?

  init(difficulty: Difficulty, day: Day, choices: Choices, elapsed: Int64, now: Int64) {
    self.difficulty = difficulty
    self.day = day
    self.choices = choices
    elapsedBefore = elapsed
    runningSince = now
  }

  func elapsed(at now: Int64) -> Int64 {
    min(DailyMode.limit, elapsedBefore + (runningSince.map { max(0, now - $0) } ?? 0))
  }

  /// The prompt shows the time so far, as of when it is drawn.
  public func prompt(at now: Int64) -> String {
    runningSince == nil
      ? "daily \(difficulty.rawValue) paused \(Durations.minutesAndSeconds(elapsed(at: now)))> "
      : "daily \(difficulty.rawValue) \(Durations.minutesAndSeconds(elapsed(at: now)))> "
  }

  /// Whether the clock is running (the prompt then changes every second).
  public var isRunning: Bool { runningSince != nil }

  var shown: [Output] { choices.shown(header: "Daily challenge, \(day.shortLabel) · ") }

  func record(elapsed: Int64, profile: String, now: Int64) -> DailyRecord {
    DailyRecord(
      profile: profile, day: day, difficulty: difficulty.rawValue, item: choices.question.key,
      elapsedMilliseconds: elapsed, updatedAt: now)
  }

  /// Saves the time so far (so `kill -9` loses at most the time since).
  mutating func checkpoint(in state: inout SessionState) {
    let elapsed = elapsed(at: state.clock.monotonicMilliseconds())
    state.save(
      DailyChallenges.Save(record(elapsed: elapsed, profile: state.profile, now: state.clock.nowMilliseconds())))
  }

  /// A second has passed while a line is being typed: the time so far is saved, and at
  /// 60:00 the challenge is over. Nothing happens while paused.
  mutating func timePassed(in state: inout SessionState) -> (Reply, done: Bool) {
    guard isRunning else { return (Reply(), false) }
    if elapsed(at: state.clock.monotonicMilliseconds()) >= DailyMode.limit { return finish(nil, in: &state) }
    checkpoint(in: &state)
    return (Reply(), false)
  }

  // MARK: Lines

  mutating func respond(_ line: String, in state: inout SessionState) -> (Reply, done: Bool) {
    let now = state.clock.monotonicMilliseconds()
    let input = line.trimmingSpaces
    let command = input.lowercased()
    // 60:00 is reached whatever the line says, quit included.
    if isRunning && elapsed(at: now) >= DailyMode.limit { return finish(nil, in: &state) }
    if ["quit", "exit"].contains(command) { return (Reply(leave(in: &state)), true) }
    if command == "help" || command == "?" {
      checkpoint(in: &state)
      return (Reply([.note(DailyMode.help)]), false)
    }
    guard isRunning else {
      if command == "resume" {
        runningSince = now
        checkpoint(in: &state)
        return (Reply([.note("Resumed at \(Durations.minutesAndSeconds(elapsedBefore)).")] + shown), false)
      }
      return (Reply([.note("Paused: type resume to see the question again (or quit).")]), false)
    }
    switch command {
    case "pause":
      elapsedBefore = elapsed(at: now)
      runningSince = nil
      checkpoint(in: &state)
      return (
        Reply([
          .clearScreen,
          .note(
            "Paused at \(Durations.minutesAndSeconds(elapsedBefore)): the question is hidden and the clock has stopped. "
              + "Type resume to go on."),
        ]), false
      )
    case "resume":
      checkpoint(in: &state)
      return (Reply([.note("The clock is running already.")]), false)
    case "":
      checkpoint(in: &state)
      return (Reply([.note("Type \(choices.range) or the answer (or pause, quit).")]), false)
    default:
      switch choices.pick(input) {
      case .answer(let pick): return finish(pick, in: &state)
      case .ambiguous(let letter):
        checkpoint(in: &state)
        return (Reply([.note(Choices.ambiguity(letter))]), false)
      case .none:
        checkpoint(in: &state)
        return (Reply([.note(notAnAnswer(input, choices, commands: "pause, quit"))]), false)
      }
    }
  }

  /// Finishes the challenge with the answer picked, or with none when the time ran out.
  mutating func finish(_ pick: Int?, in state: inout SessionState) -> (Reply, done: Bool) {
    let now = state.clock.nowMilliseconds()
    let elapsed = elapsed(at: state.clock.monotonicMilliseconds())
    let correct = pick == choices.correctIndex
    let given = pick.map { choices.answers[$0] } ?? ""
    var challenge = record(elapsed: elapsed, profile: state.profile, now: now)
    challenge.finished = true
    challenge.correct = correct
    challenge.given = given
    let answer = state.answerRecord(
      mode: DailyMode.storeMode, item: challenge.item, given: given, correct: correct, milliseconds: elapsed,
      category: choices.question.category, difficulty: choices.question.difficulty.rawValue)
    let saved = state.save(DailyChallenges.Save(challenge, answer: answer)) ?? challenge
    let rightAnswer = choices.labelled(choices.correctIndex)
    var lines: [Output]
    if saved.finished && saved.updatedAt != now {
      lines = [
        .note(
          "This challenge was finished in another Reckon: \(saved.correct ? "right" : "wrong"), in \(Durations.minutesAndSeconds(saved.elapsedMilliseconds))."
        )
      ]
    } else if pick == nil {
      lines = [.feedback(correct: false, "✗ Time's up (60:00): the answer is \(rightAnswer).")]
    } else if correct {
      lines = [.feedback(correct: true, "✓ \(rightAnswer), in \(Durations.minutesAndSeconds(elapsed)).")]
    } else {
      lines = [.feedback(correct: false, "✗ The answer is \(rightAnswer) (\(Durations.minutesAndSeconds(elapsed))).")]
    }
    lines.append(.note("Today's \(difficulty.rawValue) challenge is done; the next one opens tomorrow."))
    return (Reply(lines), true)
  }

  /// Leaves the challenge for later today: the clock stops, the time is kept (at 60:00 it
  /// is over instead, as wrong).
  mutating func leave(in state: inout SessionState) -> [Output] {
    let now = state.clock.monotonicMilliseconds()
    if elapsed(at: now) >= DailyMode.limit { return finish(nil, in: &state).0.outputs }
    elapsedBefore = elapsed(at: now)
    runningSince = nil
    checkpoint(in: &state)
    return [
      .note(
        "Left today's \(difficulty.rawValue) challenge at \(Durations.minutesAndSeconds(elapsedBefore)); "
          + "daily \(difficulty.rawValue) resumes it.")
    ]
  }

  static let help = """
    Type the letter of an answer or the answer itself. The clock runs while the
    question is on screen; 60:00 without an answer counts as wrong. pause hides
    the question and stops the clock; resume brings both back. quit (or Ctrl-D)
    leaves it for later today, with its time kept. One answer a day for each of
    easy, medium and hard: the same questions for everyone on the same date.
    """
}

extension DailyMode: Mode {
  public mutating func handle(_ line: String, in state: inout SessionState) -> ModeStep {
    return .after(respond(line, in: &state))
  }

  public mutating func tick(in state: inout SessionState) -> ModeStep {
    return .after(timePassed(in: &state))
  }

  public mutating func finish(in state: inout SessionState) -> Reply { Reply(leave(in: &state)) }

  public func completions(isFirstWord: Bool, before: String, state: SessionState) -> [String] {
    isFirstWord ? ["quit", "pause", "resume", "help"] : []
  }

  /// The clock on the prompt runs while the question is shown (not while paused).
  public var input: InputPolicy { InputPolicy(promptIsLive: isRunning) }
}
