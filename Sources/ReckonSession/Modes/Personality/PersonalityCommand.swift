import ReckonCore

/// `personality`: the quizzes; `personality NAME [shuffle]`: take one;
/// `personality load FILE`: add one from a JSON file.
struct PersonalityCommand: Command {
  static let help = CommandHelp(
    name: "personality", usage: "personality [NAME] [shuffle]", summary: "which animal are you? and other quizzes",
    details: """
      personality              the quizzes, with your last result in each
      personality animal       take one (a name's start is enough)
      personality animal shuffle
                               questions and answers in a random order
      personality load FILE    add a quiz of your own from a JSON file for
                               this session (its format is in the README)
      Answer with numbers: one for most questions, any number (1 3 or 1,3, or
      none) where it says all that apply, one point of a scale for a scale.
      back changes the last answer; quit leaves without a result. The result
      is the outcome your answers chose most (a tie goes to the one the quiz
      lists first), with the runner-up; it is saved (stats personality).
      """)

  static func completions(after words: [Substring], in state: SessionState) -> [String]? {
    words.isEmpty ? state.personality.quizzes.map(\.name) + ["load"] : nil
  }

  enum Kind: Sendable {
    case list
    case load(path: String, place: SourceSpan)
    case take(PersonalityQuiz, shuffle: Bool)
  }

  let kind: Kind

  init(parsing arguments: Arguments, in state: SessionState) throws(Diagnostic) {
    let words = arguments.words
    guard let first = words.first else {
      kind = .list
      return
    }
    if first.lowercased == "load" {
      let path = arguments.path(after: first.span.end)
      guard !path.isEmpty else {
        throw Diagnostic(
          "personality load needs a file name", at: first.span,
          hint: "for example: personality load ~/quiz.json (help personality)")
      }
      kind = .load(path: path, place: SourceSpan(first.span.end + 1, arguments.line.unicodeScalars.count))
      return
    }
    let chosen = try Arguments.one(
      first, of: state.personality.quizzes, by: \.name, unknown: "there is no personality quiz called '\(first.text)'",
      hint: { "the quizzes: \($0)" })
    var shuffle = false
    for word in words.dropFirst() {
      guard word.lowercased == "shuffle", !shuffle else {
        throw Diagnostic(
          "personality \(chosen.name) takes only shuffle after it", at: word.span,
          hint: "personality \(chosen.name) shuffle mixes the questions and answers")
      }
      shuffle = true
    }
    kind = .take(chosen, shuffle: shuffle)
  }

  func run(in state: inout SessionState) throws(Diagnostic) -> ModeStep {
    switch kind {
    case .list: return .stay(PersonalityCommand.list(state.personality.quizzes, state: state))
    case .load(let path, let place): return try PersonalityCommand.load(path, place: place, in: &state)
    case .take(let chosen, let shuffle):
      let quiz = PersonalityMode(quiz: chosen, shuffle: shuffle, random: &state.random)
      state.prepareStore()
      return .enter(quiz, Reply(quiz.opening(shuffled: shuffle)))
    }
  }

  static func list(_ quizzes: [PersonalityQuiz], state: SessionState) -> Reply {
    var last: [String: PersonalityRecord] = [:]
    var outputs: [Output] = []
    if let store = state.store {
      do {
        for result in try store.personalityResults(profile: state.profile) {
          last[result.quiz + "\n" + result.title] = result
        }
      } catch {
        outputs.append(.warning("your earlier results could not be read: \(error.message)"))
      }
    }
    var rows = [["quiz", "title", "questions", "your last result"]]
    for quiz in quizzes {
      let result =
        last[quiz.name + "\n" + quiz.title].map { "\($0.outcome) \($0.symbol) (\($0.day.shortLabel))" } ?? "–"
      rows.append([quiz.name, quiz.title, "\(quiz.questions.count)", result])
    }
    return Reply(
      outputs + [
        .note("Personality quizzes:"), .table(rows),
        .note(
          "Start one with: personality \(quizzes.first?.name ?? "NAME") (add shuffle to mix the order); "
            + "personality load FILE adds your own."),
      ])
  }

  static func load(_ path: String, place: SourceSpan, in state: inout SessionState) throws(Diagnostic) -> ModeStep {
    let bytes: [UInt8]
    switch state.readFile(path, limit: FileLimits.personality, kind: "a personality quiz") {
    case .success(let read): bytes = read
    case .failure(let problem):
      throw Diagnostic("nothing loaded from \(path): \(problem.message)", at: place)
    }
    switch PersonalityFile.read(bytes) {
    case .failure(let failure):
      let problems = failure.all
      // Every problem, on the error's own stream.
      throw Diagnostic(
        "nothing loaded from \(path): \(Wording.count(problems.count, "problem")) found", at: place,
        details: problems.map(\.description))
    case .success(let quiz):
      let replaces =
        state.personality.loaded.contains { $0.name == quiz.name }
        ? " It replaces the one loaded before."
        : BuiltInQuizzes.all.contains { $0.name == quiz.name } ? " It takes the place of the built-in one." : ""
      state.content.update(PersonalityContent.self) { $0.add(quiz) }
      return .stay(
        Reply([
          .note(
            "Loaded “\(quiz.title)”: \(Wording.count(quiz.questions.count, "question")), "
              + "\(Wording.count(quiz.outcomes.count, "outcome")).\(replaces) Start it with: personality \(quiz.name)")
        ]))
    }
  }
}

/// The personality quizzes' part in the calculator: `personality`, and `stats personality`.
enum PersonalityFeature: Feature {
  static let commands: [any Command.Type] = [PersonalityCommand.self]
  static let statistics = [
    StatisticsTopic(
      name: "personality", help: "stats personality: your personality results, newest first."
    ) { PersonalityStatistics.report(for: $0) }
  ]
}

/// The quizzes loaded this session (`personality load FILE`), after the built-in ones.
public struct PersonalityContent: SessionContent {
  public var loaded: [PersonalityQuiz] = []

  public init() {}

  /// The built-in quizzes, then those loaded (a loaded quiz with a built-in one's name takes
  /// its place).
  var quizzes: [PersonalityQuiz] {
    let builtIn = BuiltInQuizzes.all.map { quiz in loaded.first { $0.name == quiz.name } ?? quiz }
    return builtIn + loaded.filter { quiz in !BuiltInQuizzes.all.contains { $0.name == quiz.name } }
  }

  /// Adds a quiz, in the place of one loaded before with its name.
  mutating func add(_ quiz: PersonalityQuiz) {
    if let i = loaded.firstIndex(where: { $0.name == quiz.name }) {
      loaded[i] = quiz
    } else {
      loaded.append(quiz)
    }
  }
}

extension SessionState {
  /// The session's personality quizzes.
  var personality: PersonalityContent { content[PersonalityContent.self] }

  /// Personality quizzes loaded this session, after the built-in ones.
  public var loadedQuizzes: [PersonalityQuiz] {
    get { personality.loaded }
    set { content.update(PersonalityContent.self) { $0.loaded = newValue } }
  }
}
