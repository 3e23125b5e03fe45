import ReckonCore

/// `daily`: today's three challenges; `daily easy|medium|hard`: start or resume one.
struct DailyCommand: Command {
  static let help = CommandHelp(
    name: "daily", usage: "daily [easy|medium|hard]", summary: "today's three daily challenges",
    details: """
      daily         today's challenges: open, in progress (with the time so
                    far), or done (right or wrong, and the time taken)
      daily easy    start or resume today's easy one (also medium, hard)
      The same question for everyone on the same date. The clock runs while
      the question is on screen and shows on the prompt; pause hides the
      question and stops it, resume brings both back. Leave (quit, Ctrl-D)
      and come back the same day to carry on where you were. One answer a
      day; 60:00 without one counts as wrong. stats quiz shows your streak.
      """)

  static func completions(after words: [Substring], in state: SessionState) -> [String]? {
    words.isEmpty ? Difficulty.allCases.map(\.rawValue) : nil
  }

  /// Nil: today's three.
  let level: Difficulty?

  init(parsing arguments: Arguments, in state: SessionState) throws(Diagnostic) {
    let words = arguments.words
    guard let word = words.first else {
      level = nil
      return
    }
    // A level by its start: daily e, daily med.
    let typed = word.lowercased
    let level = Difficulty.allCases.first { $0.rawValue.hasPrefix(typed) }
    guard let level, words.count == 1 else {
      let extra = words.count > 1 && level != nil ? words[1] : word
      throw Diagnostic("daily takes easy, medium or hard", at: extra.span, hint: "daily shows today's three challenges")
    }
    self.level = level
  }

  func run(in state: inout SessionState) -> ModeStep {
    let today = state.clock.today()
    var saved: [DailyRecord] = []
    var outputs: [Output] = []
    if let store = state.store {
      do {
        saved = try store.read(DailyChallenges.Days(profile: state.profile, from: today, through: today))
      } catch {
        // Starting anyway could overwrite a challenge's time, or repeat one already answered.
        let warning = Output.warning("today's challenges could not be read: \(error.message)")
        return .stay(Reply([warning] + (level == nil ? [] : [.note("Try again in a moment.")])))
      }
    }
    guard let level else { return .stay(Reply(outputs + DailyCommand.overview(saved, today: today, state: state))) }
    let existing = saved.first { $0.difficulty == level.rawValue }
    if let existing, existing.finished {
      let result = existing.correct ? "right" : (existing.given.isEmpty ? "wrong (out of time)" : "wrong")
      return .stay(
        Reply(
          outputs + [
            .note(
              "You have answered today's \(level.rawValue) challenge: \(result), in "
                + "\(Durations.minutesAndSeconds(existing.elapsedMilliseconds)). The next one opens tomorrow.")
          ]))
    }
    let bank = state.trivia.dailyBank
    guard var question = DailyQuestions.question(for: today, difficulty: level, in: bank) else {
      return .stay(Reply(outputs + [.note("There are no \(level.rawValue) questions for a daily challenge.")]))
    }
    var elapsed: Int64 = 0
    if let existing, let same = bank.question(key: existing.item) {
      question = same
      // As saved, within the hour a challenge has (a damaged or edited file may hold anything).
      elapsed = min(max(existing.elapsedMilliseconds, 0), DailyMode.limit)
    }
    var daily = DailyMode(
      difficulty: level, day: today, choices: DailyQuestions.choices(for: question, on: today), elapsed: elapsed,
      now: state.clock.monotonicMilliseconds())
    state.prepareStore()
    if elapsed >= DailyMode.limit {
      let (reply, _) = daily.finish(nil, in: &state)
      return .stay(Reply(outputs + reply.outputs))
    }
    outputs.append(
      .note(
        existing == nil
          ? "Today's \(level.rawValue) challenge. The clock starts now (60:00 at most); pause stops it."
          : "Resuming today's \(level.rawValue) challenge at \(Durations.minutesAndSeconds(elapsed))."))
    outputs += daily.shown
    daily.checkpoint(in: &state)
    return .enter(daily, Reply(outputs))
  }

  static func overview(_ saved: [DailyRecord], today: Day, state: SessionState) -> [Output] {
    var rows = [["challenge", "state", "time"]]
    for level in Difficulty.allCases {
      guard let c = saved.first(where: { $0.difficulty == level.rawValue }) else {
        rows.append([level.rawValue, "open", "–"])
        continue
      }
      if c.finished {
        let result = c.correct ? "done: right" : (c.given.isEmpty ? "done: out of time" : "done: wrong")
        rows.append([level.rawValue, result, Durations.minutesAndSeconds(c.elapsedMilliseconds)])
      } else {
        rows.append([level.rawValue, "in progress", Durations.minutesAndSeconds(c.elapsedMilliseconds) + " so far"])
      }
    }
    let open = Difficulty.allCases.filter { level in !saved.contains { $0.difficulty == level.rawValue && $0.finished }
    }
    let next =
      open.isEmpty
      ? "All three are done for today; new ones open tomorrow."
      : "Start or resume one with: " + open.map { "daily \($0.rawValue)" }.joined(separator: ", ")
    return [.note("Daily challenges for \(state.profile), \(today.shortLabel):"), .table(rows), .note(next)]
  }
}
