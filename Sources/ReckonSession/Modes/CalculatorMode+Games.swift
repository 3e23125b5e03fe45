import ReckonCore

/// The calculator's game commands: `personality …` and `anagram …`.
extension CalculatorMode {
  /// `personality`: the quizzes; `personality NAME [shuffle]`: take one;
  /// `personality load FILE`: add one from a JSON file.
  func startPersonality(line: String, argumentStart: Int, in state: inout SessionState) -> (Reply, (any Mode)?) {
    let words = CalculatorMode.words(of: line, from: argumentStart)
    let quizzes = state.personalityQuizzes
    guard let first = words.first else { return (personalityList(quizzes, state: state), nil) }
    if first.text.lowercased() == "load" {
      return (loadPersonality(line: line, after: first.span, in: &state), nil)
    }
    let chosen: PersonalityQuiz
    do {
      chosen = try CalculatorMode.one(
        first, of: quizzes, by: \.name, unknown: "there is no personality quiz called '\(first.text)'",
        hint: { "the quizzes: \($0)" })
    } catch {
      return (.error(error, line), nil)
    }
    var shuffle = false
    for word in words.dropFirst() {
      guard word.text.lowercased() == "shuffle", !shuffle else {
        let d = Diagnostic(
          "personality \(chosen.name) takes only shuffle after it", at: word.span,
          hint: "personality \(chosen.name) shuffle mixes the questions and answers")
        return (.error(d, line), nil)
      }
      shuffle = true
    }
    let quiz = PersonalityMode(quiz: chosen, shuffle: shuffle, random: &state.random)
    return (Reply(state.prepareStore() + quiz.opening(shuffled: shuffle)), quiz)
  }

  func personalityList(_ quizzes: [PersonalityQuiz], state: SessionState) -> Reply {
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

  func loadPersonality(line: String, after span: SourceSpan, in state: inout SessionState) -> Reply {
    let path = CalculatorMode.path(in: line, after: span.end)
    guard !path.isEmpty else {
      let d = Diagnostic(
        "personality load needs a file name", at: span,
        hint: "for example: personality load ~/quiz.json (help personality)")
      return .error(d, line)
    }
    let place = SourceSpan(span.end + 1, line.unicodeScalars.count)
    let bytes: [UInt8]
    switch state.readFile(path) {
    case .success(let read): bytes = read
    case .failure(let problem):
      return .error(Diagnostic("nothing loaded from \(path): \(problem.message)", at: place), line)
    }
    switch PersonalityFile.read(bytes) {
    case .failure(let failure):
      let problems = failure.all
      // Every problem, on the error's own stream.
      let d = Diagnostic(
        "nothing loaded from \(path): \(Wording.count(problems.count, "problem")) found", at: place,
        details: problems.map(\.description))
      return .error(d, line)
    case .success(let quiz):
      let replaces =
        state.loadedQuizzes.contains { $0.name == quiz.name }
        ? " It replaces the one loaded before."
        : BuiltInQuizzes.all.contains { $0.name == quiz.name } ? " It takes the place of the built-in one." : ""
      if let i = state.loadedQuizzes.firstIndex(where: { $0.name == quiz.name }) {
        state.loadedQuizzes[i] = quiz
      } else {
        state.loadedQuizzes.append(quiz)
      }
      return Reply([
        .note(
          "Loaded “\(quiz.title)”: \(Wording.count(quiz.questions.count, "question")), "
            + "\(Wording.count(quiz.outcomes.count, "outcome")).\(replaces) Start it with: personality \(quiz.name)")
      ])
    }
  }

  /// The item a typed word names: the one of that name, else the only one whose name starts
  /// with it. Otherwise the error says `unknown`, or which items it could be, with a hint
  /// made from every name.
  static func one<T>(
    _ word: (text: String, span: SourceSpan), of items: [T], by name: (T) -> String, unknown: String,
    hint: (String) -> String
  ) throws(Diagnostic) -> T {
    let typed = word.text.lowercased()
    let exact = items.filter { name($0) == typed }
    let matches = exact.isEmpty ? items.filter { name($0).hasPrefix(typed) } : exact
    if matches.count == 1 { return matches[0] }
    let message =
      matches.isEmpty ? unknown : "'\(word.text)' could be \(Wording.list(matches.map(name), or: true))"
    throw Diagnostic(message, at: word.span, hint: hint(items.map(name).joined(separator: ", ")))
  }

  /// `anagram [LEVEL]`: a round of ten words; `anagram levels`: the level table.
  func startAnagram(line: String, argumentStart: Int, in state: inout SessionState) -> (Reply, (any Mode)?) {
    let words = CalculatorMode.words(of: line, from: argumentStart)
    let (levels, warnings) = state.anagramLevels()
    if let extra = words.dropFirst().first {
      let levelsFirst = words[0].text.lowercased() == "levels"
      let d = Diagnostic(
        levelsFirst ? "anagram levels takes nothing after it" : "anagram takes one level", at: extra.span,
        hint: levelsFirst ? "anagram levels shows the table" : "for example: anagram medium")
      return (.error(d, line), nil)
    }
    let level: AnagramLevel
    if let word = words.first {
      if word.text.lowercased() == "levels" { return (Reply(warnings + levelTable(levels, state: state)), nil) }
      do {
        level = try CalculatorMode.one(
          word, of: levels, by: \.name, unknown: "'\(word.text)' is not a level of the anagram game",
          hint: { "the levels: \($0) (anagram levels shows them)" })
      } catch {
        return (.error(error, line), nil)
      }
    } else {
      level = levels.first { $0.name == "easy" } ?? levels[0]
    }
    let (list, source) = state.wordList
    let picked = AnagramMode.pick(level, from: list, count: AnagramMode.roundLength, random: &state.random)
    guard !picked.isEmpty else {
      return (
        Reply(
          warnings + [.note("There are no words of \(level.lettersLabel) letters in \(source) for \(level.name).")]),
        nil
      )
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
    outputs += state.prepareStore()
    return (
      Reply(outputs + round.opening(profile: state.profile, requested: AnagramMode.roundLength, from: source)),
      round
    )
  }

  func levelTable(_ levels: [AnagramLevel], state: SessionState) -> [Output] {
    var rows = [["level", "letters", "seconds", "points a letter"]]
    for level in levels { rows.append([level.name, level.lettersLabel, "\(level.seconds)", "\(level.points)"]) }
    let custom = levels != AnagramLevels.defaults
    let file =
      state.anagramLevelsFile.map {
        custom ? "From your table in \($0)." : "Your own table goes in \($0) (help anagram shows how)."
      } ?? ""
    return [.note("Anagram levels:"), .table(rows)] + (file.isEmpty ? [] : [.note(file)])
  }
}

extension SessionState {
  /// Reads a word list (`--words FILE`) through the session's `FileSource` and uses it for
  /// the anagram game, filtered as the built-in one is; says in one line how many words it
  /// kept, how many it left out and why, and how many puzzles each level has. A list that
  /// cannot be read or keeps no word changes nothing.
  public mutating func useWords(from path: String) -> Result<LoadReport, LoadProblem> {
    let bytes: [UInt8]
    switch readFile(path) {
    case .success(let read): bytes = read
    case .failure(let problem): return .failure(problem)
    }
    let (list, report) = WordList.read(bytes)
    guard !list.words.isEmpty else {
      let skipped = report.skipped.isEmpty ? "" : "; left out \(report.skipped)"
      return .failure(LoadProblem(message: "it has no words of lowercase a–z only\(skipped)"))
    }
    words = (list, path)
    let leftOut = "left out \(report.skipped.isEmpty ? "none" : report.skipped)"
    // Words made of the same letters are one puzzle.
    let playable = AnagramLevels.defaults.map { level in
      "\(Set(list.words(lengths: level.letters).map(WordList.letters(of:))).count.grouped) \(level.name)"
    }.joined(separator: ", ")
    let loaded = Wording.count(report.kept, "word")
    return .success(
      LoadReport(
        skipped: [], summary: "loaded \(loaded), \(leftOut); playable: \(playable)",
        note: "Anagram words: loaded \(loaded) from \(path), \(leftOut); playable: \(playable)."))
  }
}
