import ReckonCore

/// The calculator's trivia commands: `quiz …` and `daily …`.
extension CalculatorMode {
  /// `quiz [easy|medium|hard] [CATEGORY] [count N]`, `quiz categories`, `quiz load FILE`.
  func startQuiz(line: String, argumentStart: Int, in state: inout SessionState) -> (Reply, (any Mode)?) {
    let words = CalculatorMode.words(of: line, from: argumentStart)
    switch words.first?.text.lowercased() {
    case "categories":
      if words.count > 1 {
        let d = Diagnostic("quiz categories takes nothing after it", at: words[1].span)
        return (.error(d, line), nil)
      }
      return (categories(state.questionBank()), nil)
    case "load":
      let path = CalculatorMode.path(in: line, after: words[0].span.end)
      guard !path.isEmpty else {
        let d = Diagnostic(
          "quiz load needs a file name", at: words[0].span, hint: "for example: quiz load ~/trivia.csv")
        return (.error(d, line), nil)
      }
      switch state.importQuestions(from: path) {
      case .success(let report): return (Reply(report.outputs), nil)
      case .failure(let problem):
        // An error, so that a script loading a file that is not there fails; every row
        // skipped goes with it, on its stream.
        let start = words[0].span.end + 1
        let d = Diagnostic(
          "nothing loaded from \(path): \(problem.message)", at: SourceSpan(start, line.unicodeScalars.count),
          details: problem.details)
        return (.error(d, line), nil)
      }
    default:
      break
    }
    let bank = state.questionBank()
    let options: QuizOptions
    do {
      options = try QuizOptions.parse(words, bank: bank)
    } catch {
      return (.error(error, line), nil)
    }
    let (questions, warnings) = QuizMode.pick(options, from: bank, in: &state)
    guard !questions.isEmpty else {
      let level = options.difficulty.map { "\($0.rawValue) " } ?? ""
      let place = options.category.map { " in \($0)" } ?? ""
      return (Reply(warnings + [.note("There are no \(level)questions\(place) to ask.")]), nil)
    }
    let quiz = QuizMode(options: options, questions: questions, state: &state)
    let opening = state.prepareStore() + warnings
    return (Reply(opening + quiz.opening(profile: state.profile, requested: options.count)), quiz)
  }

  /// The rest of the line after `offset`, trimmed, without quotes around it.
  static func path(in line: String, after offset: Int) -> String {
    var text = String(String.UnicodeScalarView(line.unicodeScalars.dropFirst(offset))).trimmingSpaces
    if text.count >= 2, let first = text.first, first == "\"" || first == "'", text.last == first {
      text = String(text.dropFirst().dropLast())
    }
    return text
  }

  func categories(_ bank: QuestionBank) -> Reply {
    var rows = [["category", "easy", "medium", "hard", "all"]]
    var totals: [Difficulty: Int] = [:]
    for (name, counts) in bank.categories {
      rows.append(
        [name] + Difficulty.allCases.map { (counts[$0] ?? 0).grouped }
          + [counts.values.reduce(0, +).grouped])
      for (level, n) in counts { totals[level, default: 0] += n }
    }
    rows.append([
      "all", totals[.easy, default: 0].grouped, totals[.medium, default: 0].grouped, totals[.hard, default: 0].grouped,
      bank.count.grouped,
    ])
    return Reply([
      .note(
        "\(Wording.count(bank.categories.count, "category", "categories")), \(Wording.count(bank.count, "question")):"),
      .table(rows),
      .note(
        "For example: quiz \(Folding.key(bank.categories.first?.name.split(separator: " ").first ?? "history")) easy count 5"
      ),
    ])
  }

  /// `daily`: today's three challenges; `daily easy|medium|hard`: start or resume one.
  func startDaily(line: String, argumentStart: Int, in state: inout SessionState) -> (Reply, (any Mode)?) {
    let words = CalculatorMode.words(of: line, from: argumentStart)
    let today = state.clock.today()
    var saved: [DailyRecord] = []
    var outputs: [Output] = []
    if let store = state.store {
      do {
        saved = try store.dailyChallenges(profile: state.profile, from: today, through: today)
      } catch {
        // Starting anyway could overwrite a challenge's time, or repeat one already answered.
        let warning = Output.warning("today's challenges could not be read: \(error.message)")
        return (Reply([warning] + (words.isEmpty ? [] : [.note("Try again in a moment.")])), nil)
      }
    }
    guard let word = words.first else { return (Reply(outputs + overview(saved, today: today, state: state)), nil) }
    // A level by its start: daily e, daily med.
    let typed = word.text.lowercased()
    let level = Difficulty.allCases.first { $0.rawValue.hasPrefix(typed) }
    guard let level, words.count == 1 else {
      let extra = words.count > 1 && level != nil ? words[1] : word
      let d = Diagnostic(
        "daily takes easy, medium or hard", at: extra.span, hint: "daily shows today's three challenges")
      return (.error(d, line), nil)
    }
    let existing = saved.first { $0.difficulty == level.rawValue }
    if let existing, existing.finished {
      let result = existing.correct ? "right" : (existing.given.isEmpty ? "wrong (out of time)" : "wrong")
      return (
        Reply(
          outputs + [
            .note(
              "You have answered today's \(level.rawValue) challenge: \(result), in "
                + "\(minutesAndSeconds(existing.elapsedMilliseconds)). The next one opens tomorrow.")
          ]), nil
      )
    }
    let bank = state.dailyBank
    guard var question = DailyQuestions.question(for: today, difficulty: level, in: bank) else {
      return (Reply(outputs + [.note("There are no \(level.rawValue) questions for a daily challenge.")]), nil)
    }
    var elapsed: Int64 = 0
    if let existing, let same = bank.question(key: existing.item) {
      question = same
      elapsed = existing.elapsedMilliseconds
    }
    let now = state.clock.nowMilliseconds()
    var daily = DailyMode(
      difficulty: level, day: today, choices: DailyQuestions.choices(for: question, on: today), elapsed: elapsed,
      now: now)
    outputs += state.prepareStore()
    if elapsed >= DailyMode.limit {
      let (reply, _) = daily.finish(nil, in: &state)
      return (Reply(outputs + reply.outputs), nil)
    }
    outputs.append(
      .note(
        existing == nil
          ? "Today's \(level.rawValue) challenge. The clock starts now (60:00 at most); pause stops it."
          : "Resuming today's \(level.rawValue) challenge at \(minutesAndSeconds(elapsed))."))
    outputs += daily.shown
    outputs += daily.checkpoint(in: &state)
    return (Reply(outputs), daily)
  }

  func overview(_ saved: [DailyRecord], today: Day, state: SessionState) -> [Output] {
    var rows = [["challenge", "state", "time"]]
    for level in Difficulty.allCases {
      guard let c = saved.first(where: { $0.difficulty == level.rawValue }) else {
        rows.append([level.rawValue, "open", "–"])
        continue
      }
      if c.finished {
        let result = c.correct ? "done: right" : (c.given.isEmpty ? "done: out of time" : "done: wrong")
        rows.append([level.rawValue, result, minutesAndSeconds(c.elapsedMilliseconds)])
      } else {
        rows.append([level.rawValue, "in progress", minutesAndSeconds(c.elapsedMilliseconds) + " so far"])
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

extension SessionState {
  /// Why nothing could be loaded from a file, and (when its rows were all skipped) each row
  /// skipped with its line and why, then what that came to.
  public struct LoadProblem: Error, Sendable {
    public var message: String
    public var details: [String] = []
    /// There is no file at the path (an optional file may simply be left out).
    public var isMissing = false
  }

  /// What loading a file gave: everything it left out, and one line that sums it up.
  public struct LoadReport: Sendable, Equatable {
    /// Each row left out, with its line and why (`line 5: empty question`), every one.
    public var skipped: [String]
    /// What was loaded and what was left out, in one line, without the file's name (a script
    /// says it before): `loaded 4 questions in 1 category (CSV), skipped 6 rows; the quiz now
    /// has 16`.
    public var summary: String
    /// The same, naming the file, as the session shows it last.
    public var note: String

    /// As the session shows it: the rows skipped under a heading, then the summary.
    public var outputs: [Output] {
      let rows: [Output] =
        skipped.isEmpty
        ? [] : [.note("Skipped \(Wording.count(skipped.count, "row")):")] + skipped.map { .note("  " + $0) }
      return rows + [.note(note)]
    }
  }

  /// The bytes of a user's file, through the session's `FileSource`, or why they cannot be read.
  func readFile(_ path: String) -> Result<[UInt8], LoadProblem> {
    guard let files else { return .failure(LoadProblem(message: "this session cannot read files")) }
    do {
      return .success(try files.read(path))
    } catch {
      return .failure(LoadProblem(message: "cannot read it: \(error.message)", isMissing: error.isMissing))
    }
  }

  /// Reads a trivia file through the session's `FileSource` and adds its good questions for
  /// the rest of the session; says why each row skipped was, and what was loaded. A file
  /// that cannot be read, is not UTF-8 or has no good row is a failure: nothing is loaded and
  /// the session is as it was.
  public mutating func importQuestions(from path: String) -> Result<LoadReport, LoadProblem> {
    let bytes: [UInt8]
    switch readFile(path) {
    case .success(let read): bytes = read
    case .failure(let problem): return .failure(problem)
    }
    let read: TriviaImport
    switch TriviaImport.read(bytes, besides: questionBank()) {
    case .success(let result): read = result
    case .failure(let failure): return .failure(LoadProblem(message: failure.message))
    }
    let skipped = read.skipped.map { "line \($0.line): \($0.reason)" }
    let skippedRows = read.skipped.isEmpty ? "skipped no rows" : "skipped \(Wording.count(read.skipped.count, "row"))"
    guard !read.questions.isEmpty else {
      let why =
        read.skipped.isEmpty
        ? "it has no questions" : "none of its \(Wording.count(read.skipped.count, "row")) is a question it can use"
      let summary = read.skipped.isEmpty ? [] : ["loaded no questions, \(skippedRows)"]
      return .failure(LoadProblem(message: "\(why) (read as \(read.formatLabel))", details: skipped + summary))
    }
    addQuestions(read.questions)
    // Folded once per distinct spelling, not once per question.
    let categories = Set(Set(read.questions.map(\.category)).map { Folding.key($0) }).count
    let loaded =
      "\(Wording.count(read.questions.count, "question")) in \(Wording.count(categories, "category", "categories"))"
    let total = "the quiz now has \(questionBank().count.grouped)"
    return .success(
      LoadReport(
        skipped: skipped, summary: "loaded \(loaded) (\(read.formatLabel)), \(skippedRows); \(total)",
        note: "Loaded \(loaded) from \(path) (\(read.formatLabel)), \(skippedRows); \(total)."))
  }
}
