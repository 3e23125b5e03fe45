import ReckonCore

/// `quiz [easy|medium|hard] [CATEGORY] [count N]`, `quiz categories`, `quiz load FILE`.
struct QuizCommand: Command {
  static let help = CommandHelp(
    name: "quiz", usage: "quiz [level] [category] [count N]", summary: "a round of multiple-choice trivia",
    details: """
      quiz                  10 questions, all difficulties and categories mixed
      quiz hard             one level (easy, medium, hard);  quiz geography
      quiz sci easy count 5 a category by the start of its name, 5 questions
      quiz categories       the categories, with how many questions each has
      quiz load FILE        add questions from a file for this session:
                            star-separated (category*difficulty*question*
                            correctAnswer*incorrect1*incorrect2*incorrect3,
                            and if the header names it, accepted: other
                            ways to type the right answer, USA|US), the
                            same columns as CSV, or Open Trivia DB JSON
      Answer with the letter (a–d) or the answer itself, in any case, with or
      without accents, a number in digits or words (8 or eight); skip; stats;
      quit ends with a summary. Every answer is
      saved; you are asked the questions you have seen least first, so none
      comes back before all that match have been asked.
      """)

  /// The first word of each built-in category, folded (`science`, `words`).
  static let categoryWords: [String] = BuiltInQuestions.bank.categories.compactMap {
    Folding.key($0.name).split(separator: " ").first.map(String.init)
  }

  static func completions(after words: [Substring], in state: SessionState) -> [String]? {
    // Category names complete by their first word (quiz geography, quiz science).
    if words.first == "load" { return nil }
    let levels = Difficulty.allCases.map(\.rawValue) + ["count"]
    return (words.isEmpty ? ["categories", "load"] : []) + levels + categoryWords
  }

  enum Kind: Sendable {
    case categories
    case load(path: String, place: SourceSpan)
    case round(QuizOptions)
  }

  let kind: Kind

  init(parsing arguments: Arguments, in state: SessionState) throws(Diagnostic) {
    let words = arguments.words
    switch words.first?.lowercased {
    case "categories":
      if words.count > 1 { throw Diagnostic("quiz categories takes nothing after it", at: words[1].span) }
      kind = .categories
    case "load":
      let path = arguments.path(after: words[0].span.end)
      guard !path.isEmpty else {
        throw Diagnostic("quiz load needs a file name", at: words[0].span, hint: "for example: quiz load ~/trivia.csv")
      }
      kind = .load(path: path, place: arguments.rest(from: words[0].span.end + 1))
    default:
      kind = .round(try QuizOptions.parse(words, bank: state.trivia.questions))
    }
  }

  func run(in state: inout SessionState) throws(Diagnostic) -> ModeStep {
    switch kind {
    case .categories:
      return .stay(QuizCommand.categories(state.trivia.questions))
    case .load(let path, let place):
      switch state.useQuestions(from: path) {
      case .success(let report): return .stay(Reply(report.outputs))
      case .failure(let problem):
        // An error, so that a script loading a file that is not there fails; every row
        // skipped goes with it, on its stream.
        throw Diagnostic("nothing loaded from \(path): \(problem.message)", at: place, details: problem.details)
      }
    case .round(let options):
      let (questions, warnings) = QuizMode.pick(options, from: state.trivia.questions, in: &state)
      guard !questions.isEmpty else {
        let level = options.difficulty.map { "\($0.rawValue) " } ?? ""
        let place = options.category.map { " in \($0)" } ?? ""
        return .stay(Reply(warnings + [.note("There are no \(level)questions\(place) to ask.")]))
      }
      let quiz = QuizMode(options: options, questions: questions, state: &state)
      state.prepareStore()
      let opening = warnings
      return .enter(quiz, Reply(opening + quiz.opening(profile: state.profile, requested: options.count)))
    }
  }

  static func categories(_ bank: QuestionBank) -> Reply {
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
}

/// The trivia's part in the calculator: `quiz`, `daily`, and `stats quiz` (also `stats daily`).
enum TriviaFeature: Feature {
  static let commands: [any Command.Type] = [QuizCommand.self, DailyCommand.self]
  static let statistics = [
    StatisticsTopic(
      name: "quiz", aliases: ["daily"],
      help: """
        stats quiz: questions answered, accuracy by difficulty and category, the
        daily streak (days with all three challenges answered), best and median
        daily times, and the last 14 days of daily results.
        """
    ) { TriviaStatistics.report(for: $0) }
  ]
}

/// The questions of a session: the built-in bank (the daily challenges come from it) and
/// those loaded with `quiz load` or on the command line.
public struct TriviaContent: SessionContent {
  /// The built-in bank; tests give their own.
  public var builtIn: QuestionBank?
  /// The built-in bank and the questions loaded this session; nil until some are loaded.
  var loaded: QuestionBank?

  public init() {}

  /// The bank the daily challenges come from: the built-in one, the same for everybody.
  var dailyBank: QuestionBank { builtIn ?? BuiltInQuestions.bank }

  /// The questions a quiz can ask: the built-in ones and those loaded this session.
  var questions: QuestionBank { loaded ?? dailyBank }

  /// Adds questions for the rest of the session (duplicates are left out by the importer).
  mutating func add(_ questions: [TriviaQuestion]) {
    if loaded == nil { loaded = dailyBank }
    loaded!.reserve(questions.count)
    for question in questions { loaded!.add(question) }
  }
}

extension SessionState {
  /// The session's questions.
  var trivia: TriviaContent { content[TriviaContent.self] }

  /// The trivia bank built in (the daily challenges come from it); tests give their own.
  public var builtInQuestions: QuestionBank? {
    get { trivia.builtIn }
    set { content.update(TriviaContent.self) { $0.builtIn = newValue } }
  }

  /// Reads a trivia file through the session's `FileSource` and adds its good questions for
  /// the rest of the session; says why each row skipped was, and what was loaded. A file
  /// that cannot be read, is not UTF-8 or has no good row is a failure: nothing is loaded and
  /// the session is as it was.
  public mutating func useQuestions(from path: String) -> Result<LoadReport, LoadProblem> {
    var lines: TextLines
    switch openLines(path, lineLimit: TriviaImport.maxLineBytes) {
    case .success(let opened): lines = opened
    case .failure(let problem): return .failure(problem)
    }
    let read: TriviaImport
    switch TriviaImport.read(&lines, besides: trivia.questions) {
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
    content.update(TriviaContent.self) { $0.add(read.questions) }
    // Folded once per distinct spelling, not once per question.
    let categories = Set(Set(read.questions.map(\.category)).map { Folding.key($0) }).count
    let loaded =
      "\(Wording.count(read.questions.count, "question")) in \(Wording.count(categories, "category", "categories"))"
    let total = "the quiz now has \(trivia.questions.count.grouped)"
    return .success(
      LoadReport(
        skipped: skipped, summary: "loaded \(loaded) (\(read.formatLabel)), \(skippedRows); \(total)",
        note: "Loaded \(loaded) from \(path) (\(read.formatLabel)), \(skippedRows); \(total)."))
  }
}
