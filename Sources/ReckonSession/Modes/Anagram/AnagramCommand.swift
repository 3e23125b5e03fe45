import ReckonCore

/// `anagram [LEVEL]`: a round of ten words; `anagram levels`: the level table.
struct AnagramCommand: Command {
  static let help = CommandHelp(
    name: "anagram", usage: "anagram [easy|medium|hard]", summary: "unscramble ten words against the clock",
    details: """
      anagram          a round of 10 words at easy (4–5 letters, common words,
                       60 s a word, 10 points a letter); medium: 6, common,
                       45 s, 15; hard: 7–8, all words, 45 s, 20
      anagram levels   the level table
      Type any word of the list made of exactly the tiles' letters. Right: the
      word's points; wrong: minus half of them (never below 0), but a real
      word the game's list lacks costs nothing. hint places the
      next letter (one letter's points); shuffle; skip shows the word (no
      points). The time left shows on the prompt. The score is saved as you
      go; stats anagram shows your best and your rounds.
      Your own levels: a file anagram-levels.txt in Reckon's settings folder
      (anagram levels says where), a line a level: name letters seconds
      points [common|all], like  hard 7-9 40 25  (a new name adds a level).
      reckon --words FILE plays with another word list.
      """)

  static func completions(after words: [Substring], in state: SessionState) -> [String]? {
    words.isEmpty ? AnagramLevels.defaults.map(\.name) + ["levels"] : nil
  }

  enum Kind: Sendable {
    /// The easy level, or the one of that name (read when the round starts: the user's
    /// table may change between lines).
    case round(Arguments.Word?)
    case levels
  }

  let kind: Kind

  init(parsing arguments: Arguments, in state: SessionState) throws(Diagnostic) {
    let words = arguments.words
    if let extra = words.dropFirst().first {
      let levelsFirst = words[0].lowercased == "levels"
      throw Diagnostic(
        levelsFirst ? "anagram levels takes nothing after it" : "anagram takes one level", at: extra.span,
        hint: levelsFirst ? "anagram levels shows the table" : "for example: anagram medium")
    }
    kind = words.first?.lowercased == "levels" ? .levels : .round(words.first)
  }

  func run(in state: inout SessionState) throws(Diagnostic) -> ModeStep {
    let (levels, warnings) = state.anagramLevels()
    let level: AnagramLevel
    switch kind {
    case .levels: return .stay(Reply(warnings + AnagramCommand.levelTable(levels, state: state)))
    case .round(let word?):
      level = try Arguments.one(
        word, of: levels, by: \.name, unknown: "'\(word.text)' is not a level of the anagram game",
        hint: { "the levels: \($0) (anagram levels shows them)" })
    case .round(nil):
      level = levels.first { $0.name == "easy" } ?? levels[0]
    }
    let (list, source) = state.anagram.wordList
    let picked = AnagramMode.pick(level, from: list, count: AnagramMode.roundLength, random: &state.random)
    guard !picked.isEmpty else {
      return .stay(
        Reply(
          warnings + [.note("There are no words of \(level.lettersLabel) letters in \(source) for \(level.name).")]))
    }
    var outputs = warnings
    var best: Int?
    if let store = state.store {
      do {
        best = try store.anagramRounds(profile: state.profile).filter { $0.level == level.name }.map(\.score).max()
      } catch {
        outputs.append(.warning("your best scores could not be read: \(error.message)"))
      }
    }
    let round = AnagramMode(level: level, words: picked, list: list, best: best, state: &state)
    state.prepareStore()
    return .enter(
      round, Reply(outputs + round.opening(profile: state.profile, requested: AnagramMode.roundLength, from: source)))
  }

  static func levelTable(_ levels: [AnagramLevel], state: SessionState) -> [Output] {
    var rows = [["level", "letters", "words", "seconds", "points a letter"]]
    for level in levels {
      rows.append([level.name, level.lettersLabel, level.wordsLabel, "\(level.seconds)", "\(level.points)"])
    }
    let custom = levels != AnagramLevels.defaults
    let file =
      state.anagramLevelsFile.map {
        custom ? "From your table in \($0)." : "Your own table goes in \($0) (help anagram shows how)."
      } ?? ""
    return [.note("Anagram levels:"), .table(rows)] + (file.isEmpty ? [] : [.note(file)])
  }
}

/// The anagram game's part in the calculator: `anagram`, and `stats anagram`.
enum AnagramFeature: Feature {
  static let commands: [any Command.Type] = [AnagramCommand.self]
  static let statistics = [
    StatisticsTopic(
      name: "anagram", help: "stats anagram: rounds, best and average scores by level, the last rounds."
    ) { AnagramStatistics.report(for: $0) }
  ]
}

/// The game's words from `--words FILE` (nil: the built-in list), and the file of the user's
/// level table.
public struct AnagramContent: SessionContent {
  public var words: (list: WordList, source: String)?
  /// The file with the user's anagram level table, read at each round, when it is not the
  /// one in the configuration folder.
  public var levelsFile: String?
  /// The larger dictionary a guess the game's list lacks is looked up in: the system's word
  /// list (Debian's `wordlist` packages, wamerican's 100,000 words), when there is one.
  public var dictionaryFile = "/usr/share/dict/words"
  /// Its words, read at the first guess that needs them; none when it cannot be read.
  var dictionary: WordList?

  public init() {}

  /// The game's words and where they came from.
  var wordList: (list: WordList, source: String) { words ?? (WordList.builtIn, "the built-in list") }
}

extension SessionState {
  /// The anagram game's words and level table.
  var anagram: AnagramContent { content[AnagramContent.self] }

  /// The file with the user's anagram level table, read at each round (if it is there):
  /// `anagram-levels.txt` in the configuration folder, unless another is set; nil: none.
  public var anagramLevelsFile: String? {
    get { anagram.levelsFile ?? configFolder.map { $0 + "/anagram-levels.txt" } }
    set { content.update(AnagramContent.self) { $0.levelsFile = newValue } }
  }

  /// Whether `word` is in the larger dictionary (`AnagramContent.dictionaryFile`), read once,
  /// filtered as a word list is (no names, possessives or blocked words).
  mutating func isDictionaryWord(_ word: String) -> Bool {
    if anagram.dictionary == nil {
      var words = WordList([])
      if case .success(var lines) = openLines(
        anagram.dictionaryFile, lineLimit: WordList.maxLineBytes, budget: WordList.maxFileBytes),
        let (list, _) = try? WordList.read(&lines)
      {
        words = list
      }
      content.update(AnagramContent.self) { $0.dictionary = words }
    }
    return anagram.dictionary?.accepts(word, for: word) ?? false
  }

  /// The anagram levels: the defaults, with the user's file over them. A file that is there
  /// but has problems is not used, and every problem is in the warning returned.
  func anagramLevels() -> (levels: [AnagramLevel], warnings: [Output]) {
    guard let path = anagramLevelsFile, files != nil else { return (AnagramLevels.defaults, []) }
    let bytes: [UInt8]
    switch readFile(path, limit: AnagramLevels.maxFileBytes, kind: "a level table") {
    case .success(let read): bytes = read
    case .failure(let problem):
      if problem.isMissing { return (AnagramLevels.defaults, []) }
      return (AnagramLevels.defaults, [.warning("the anagram levels in \(path) are not used: \(problem.message)")])
    }
    let text: String
    switch TextFile.decode(bytes) {
    case .success(let decoded): text = decoded
    case .failure(let bad):
      return (
        AnagramLevels.defaults,
        [.warning("the anagram levels in \(path) are not used: line \(bad.line) is not UTF-8 (byte \(bad.byte))")]
      )
    }
    switch AnagramLevels.read(text) {
    case .success(let levels): return (levels, [])
    case .failure(let problems):
      let listed = problems.all.map { "\n  \($0)" }.joined()
      return (AnagramLevels.defaults, [.warning("the anagram levels in \(path) are not used:\(listed)")])
    }
  }

  /// Reads a word list (`--words FILE`) through the session's `FileSource` and uses it for
  /// the anagram game, filtered as the built-in one is; says in one line how many words it
  /// kept, how many it left out and why, and how many puzzles each level has. A list that
  /// cannot be read or keeps no word changes nothing.
  public mutating func useWords(from path: String) -> Result<LoadReport, LoadProblem> {
    var lines: TextLines
    switch openLines(path, lineLimit: WordList.maxLineBytes, budget: WordList.maxFileBytes) {
    case .success(let opened): lines = opened
    case .failure(let problem): return .failure(problem)
    }
    let list: WordList
    let report: WordList.Report
    do {
      (list, report) = try WordList.read(&lines)
    } catch {
      return .failure(LoadProblem(message: error.message("a word list")))
    }
    guard !list.words.isEmpty else {
      let skipped = report.skipped.isEmpty ? "" : "; left out \(report.skipped)"
      return .failure(LoadProblem(message: "it has no words of lowercase a–z only\(skipped)"))
    }
    content.update(AnagramContent.self) { $0.words = (list, path) }
    let leftOut = "left out \(report.skipped.isEmpty ? "none" : report.skipped)"
    // Words made of the same letters are one puzzle.
    let playable = AnagramLevels.defaults.map { level in
      "\(list.puzzles(lengths: level.letters, commonOnly: level.commonWords).grouped) \(level.name)"
    }.joined(separator: ", ")
    let loaded = Wording.count(report.kept, "word")
    return .success(
      LoadReport(
        skipped: [], summary: "loaded \(loaded), \(leftOut); playable: \(playable)",
        note: "Anagram words: loaded \(loaded) from \(path), \(leftOut); playable: \(playable)."))
  }
}
