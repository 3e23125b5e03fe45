import ReckonCore

/// A round of the anagram game: ten words, each shown as scrambled tiles with a time to
/// solve it. Any word of the list made of exactly those letters is right.
public struct AnagramMode: Sendable {
  /// Words in a round.
  public static let roundLength = 10

  let level: AnagramLevel
  let words: [String]
  let list: WordList
  /// The word on screen (an index into `words`), its tiles, the letters a hint has put in
  /// place, and when it appeared (a monotonic reading, as every time its countdown uses).
  var index = 0
  var tiles: [String]
  var hints = 0
  var shownAt: Int64
  var score = 0
  var wrong = 0
  var hintsTaken = 0
  /// The words not solved (skipped or out of time), for the summary.
  var missed: [String] = []
  /// When the round started, on the wall clock: the round's key and day in the store.
  let startedAt: Int64
  /// The best score for this level before this round; nil when there is none (or it could
  /// not be read).
  let best: Int?

  /// Every word played so far was solved unless it was missed.
  var solved: Int { index - missed.count }

  init(level: AnagramLevel, words: [String], list: WordList, best: Int?, state: inout SessionState) {
    self.level = level
    self.words = words
    self.list = list
    self.best = best
    startedAt = state.clock.nowMilliseconds()
    shownAt = state.clock.monotonicMilliseconds()
    tiles = []
    tiles = scramble(random: &state.random)
  }

  /// Up to `count` words of the level's lengths, at random, no two made of the same letters.
  static func pick(_ level: AnagramLevel, from list: WordList, count: Int, random: inout any RandomSource) -> [String] {
    var picked: [String] = []
    var letters: Set<String> = []
    for word in Shuffle.items(list.words(lengths: level.letters, commonOnly: level.commonWords), &random) {
      guard picked.count < count else { break }
      // Not a word that is also a word of the round (done, hint, skip) or made of its letters
      // (node, thin): typing it must do one thing only.
      if list.anagrams(of: word).contains(where: commands.contains) { continue }
      if letters.insert(WordList.letters(of: word)).inserted { picked.append(word) }
    }
    return picked
  }

  /// What the round understands besides a word.
  static let commands: Set = ["quit", "done", "exit", "help", "hint", "shuffle", "skip"]

  var word: String { words[index] }
  var letterCount: Int { word.utf8.count }
  /// What solving the word is worth, and what a wrong guess costs (half that).
  var value: Int { level.points * letterCount }
  var penalty: Int { value / 2 }
  var deadline: Int64 { shownAt + Int64(level.seconds) * 1000 }

  func scramble(random: inout some RandomNumberGenerator) -> [String] {
    let answers = Set(list.anagrams(of: word))
    return Tiles.scramble(word, fixed: hints, accepted: { answers.contains($0) }, random: &random)
  }

  /// `anagram 3/10 0:42> `: the word's place in the round and the time left for it.
  public func prompt(at now: Int64) -> String {
    let left = max(0, deadline - now)
    return "anagram \(index + 1)/\(words.count) \(Durations.minutesAndSeconds(left + 999))> "
  }

  func opening(profile: String, requested: Int, from source: String) -> [Output] {
    var lines: [Output] = [
      .note(
        "Anagrams for \(profile), \(level.name): \(Wording.count(words.count, "word")) of \(level.lettersLabel) letters, "
          + "\(level.seconds) s each, \(level.points) points a letter.")
    ]
    if words.count < requested {
      lines.append(.note("Only \(Wording.count(words.count, "word")) of \(level.lettersLabel) letters in \(source)."))
    }
    lines.append(
      .note("Type the word; hint, shuffle, skip, quit. A guess that is no word costs half the word's points."))
    return lines + current
  }

  var current: [Output] {
    [
      .note("Word \(index + 1) of \(words.count) · \(letterCount) letters · worth \(value) · score \(score)"),
      .tiles(shownTiles, fixed: hints),
    ]
  }

  /// The tiles as shown: in capitals, as on a board.
  var shownTiles: [String] { tiles.map { $0.uppercased() } }

  // MARK: Lines

  mutating func respond(_ line: String, in state: inout SessionState) -> (Reply, done: Bool) {
    let input = line.trimmingSpaces.lowercased()
    let now = state.clock.monotonicMilliseconds()
    if now >= deadline {
      // The line came after the time was up: the word is over, whatever the line says.
      if ["quit", "done", "exit"].contains(input) {
        let gone = word
        missed.append(gone)
        index += 1
        return (Reply([timeUpFeedback(for: gone)] + summary(in: &state)), true)
      }
      var (reply, done) = timeUp(now: now, in: &state)
      if !input.isEmpty && !done { reply.outputs.insert(.note("Too late for '\(input)':"), at: 0) }
      return (reply, done)
    }
    switch input {
    case "quit", "done", "exit":
      return (Reply(summary(in: &state)), true)
    case "help", "?":
      return (Reply([.note(AnagramMode.help(level))] + current), false)
    case "":
      return (Reply(current), false)
    case "hint":
      return (Reply(hint(in: &state)), false)
    case "shuffle":
      tiles = scramble(random: &state.random)
      return (Reply([.tiles(shownTiles, fixed: hints)]), false)
    case "skip":
      missed.append(word)
      let outputs: [Output] = [.feedback(correct: false, "Skipped: the word was \(word.uppercased()).")]
      return finishWord(outputs, now: now, in: &state)
    default:
      // A calculator command typed by habit costs nothing (unless it is made of the tiles).
      if WordList.letters(of: input) != WordList.letters(of: word),
        let note = Commands.typedInMode(input, here: "Here, type a word of these letters.")
      {
        return (Reply([.note(note)]), false)
      }
      guard input.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) }) else {
        return (Reply([.note("Type a word of all \(letterCount) letters (or hint, shuffle, skip, quit).")]), false)
      }
      return guess(input, now: now, in: &state)
    }
  }

  mutating func guess(_ guess: String, now: Int64, in state: inout SessionState) -> (Reply, done: Bool) {
    if list.accepts(guess, for: word) {
      score += value
      let also = guess == word ? "" : " (also \(word.uppercased()))"
      let outputs: [Output] = [.feedback(correct: true, "✓ \(guess.uppercased())\(also): +\(value), score \(score)")]
      return finishWord(outputs, now: now, in: &state)
    }
    // What cannot be an anagram of the tiles at all is a slip, not a guess: it costs nothing,
    // and the reply says what is wrong with it.
    if let slip = AnagramMode.slip(guess, tiles: word) { return (Reply([.note(slip)]), false) }
    // A real word the game's list leaves out (a rarer one, or a list of your own's gap) is
    // not a wrong guess either.
    if state.isDictionaryWord(guess) {
      return (
        Reply([
          .note("\(guess.uppercased()) is a word, but not in this game's list: it costs nothing. Try another.")
        ]), false
      )
    }
    wrong += 1
    let lost = min(score, penalty)
    score -= lost
    return (
      Reply([
        .feedback(
          correct: false,
          "✗ \(guess.uppercased()) is not in the word list: \(AnagramMode.cost(lost, score)). Try again.")
      ]),
      false
    )
  }

  /// Why `guess` cannot be made of the tiles (all the letters of `tiles`, each once), or nil
  /// when it can: a guess of another length, or with letters the tiles do not have.
  static func slip(_ guess: String, tiles: String) -> String? {
    // A long guess by its ends (a pasted page is not echoed back whole).
    let shown = Diagnostic.shortened(guess.uppercased())
    let count = tiles.unicodeScalars.count
    if guess.unicodeScalars.count != count {
      return
        "\(shown) has \(guess.unicodeScalars.count.grouped) letters: the word has \(count), all the tiles. It costs nothing."
    }
    var left = Dictionary(tiles.unicodeScalars.map { ($0, 1) }, uniquingKeysWith: +)
    var extra: [String] = []
    for letter in guess.unicodeScalars {
      if let n = left[letter], n > 0 {
        left[letter] = n - 1
      } else {
        extra.append(String(letter).uppercased())
      }
    }
    guard !extra.isEmpty else { return nil }
    // The tiles it leaves unused (in alphabetical order: the word's would give it away).
    var unused: [String] = []
    for letter in tiles.unicodeScalars where left[letter, default: 0] > 0 {
      left[letter]! -= 1
      unused.append(String(letter).uppercased())
    }
    return "\(shown) is not made of these tiles: it has \(Wording.list(extra.sorted())) where the tiles have "
      + "\(Wording.list(unused.sorted())). It costs nothing."
  }

  /// A hint puts the next letter in its place, for one letter's points.
  mutating func hint(in state: inout SessionState) -> [Output] {
    guard Tiles.canScramble(word, fixed: hints + 1) else {
      return [.note("No more hints for this word: one more would give it away. skip shows it.")]
    }
    hints += 1
    hintsTaken += 1
    let lost = min(score, level.points)
    score -= lost
    tiles = scramble(random: &state.random)
    let placed = word.prefix(hints).uppercased()
    return [
      .note("Hint: the word starts \(placed); \(AnagramMode.cost(lost, score))."), .tiles(shownTiles, fixed: hints),
    ]
  }

  func timeUpFeedback(for word: String) -> Output {
    .feedback(correct: false, "Time's up: the word was \(word.uppercased()).")
  }

  /// The time for the word is up: it is shown, counts as not solved, and the round moves on.
  mutating func timeUp(now: Int64, in state: inout SessionState) -> (Reply, done: Bool) {
    missed.append(word)
    return finishWord([timeUpFeedback(for: word)], now: now, in: &state)
  }

  /// After a word is solved, skipped or out of time: the next word (the round saved as it
  /// stands), or the end of the round with its summary (which saves it).
  mutating func finishWord(_ outputs: [Output], now: Int64, in state: inout SessionState) -> (Reply, done: Bool) {
    index += 1
    guard index < words.count else { return (Reply(outputs + summary(in: &state)), true) }
    save(finished: false, in: &state)
    hints = 0
    shownAt = now
    tiles = scramble(random: &state.random)
    return (Reply(outputs + current), false)
  }

  /// A second has passed at the prompt: when the word's time is up, it is shown and the next
  /// comes (or the round ends).
  mutating func timePassed(in state: inout SessionState) -> (Reply, done: Bool) {
    let now = state.clock.monotonicMilliseconds()
    guard now >= deadline else { return (Reply(), false) }
    return timeUp(now: now, in: &state)
  }

  /// The round as it stands, saved (after every word, so leaving keeps the score).
  mutating func save(finished: Bool, in state: inout SessionState) {
    let record = AnagramRecord(
      profile: state.profile, startedAt: startedAt, day: state.clock.day(atMilliseconds: startedAt), level: level.name,
      score: score, solved: solved, played: index, finished: finished)
    state.save(GameResults.Save(record.gameResult))
  }

  /// The end of the round (or leaving it): the score, the words solved, and the best so far.
  mutating func summary(in state: inout SessionState) -> [Output] {
    let played = index
    guard played > 0 else { return [.note("Round over: no words played, nothing saved.")] }
    save(finished: played == words.count, in: &state)
    var outputs: [Output] = []
    let early = played < words.count ? " after \(played) of \(words.count) words" : ""
    var extras: [String] = []
    if hintsTaken > 0 { extras.append(Wording.count(hintsTaken, "hint")) }
    if wrong > 0 { extras.append(Wording.count(wrong, "wrong guess", "wrong guesses")) }
    let detail = extras.isEmpty ? "" : " (\(extras.joined(separator: ", ")))"
    outputs.append(
      .note("Round over\(early): \(score) points, \(solved) of \(Wording.count(played, "word")) solved\(detail)."))
    if !missed.isEmpty {
      outputs.append(.note("Not solved: " + missed.map { $0.uppercased() }.joined(separator: ", ")))
    }
    switch best {
    case nil:
      outputs.append(.note("Your first \(level.name) round: \(score) is the score to beat."))
    case let best? where score > best:
      outputs.append(.note("A new best for \(level.name)! (It was \(best).)"))
    case let best?:
      outputs.append(.note("Your best for \(level.name) is \(best)."))
    }
    return outputs
  }

  /// `−25, score 40`; at 0 there is nothing to lose: `score 0 (it never goes below)`.
  static func cost(_ lost: Int, _ score: Int) -> String {
    lost > 0 ? "−\(lost), score \(score)" : "score \(score) (it never goes below 0)"
  }

  static func help(_ level: AnagramLevel) -> String {
    """
    Make a word of all the letters on the tiles: any word of the list made of
    exactly them is right (silent for listen). Right: +\(level.points) a letter. Letters
    that are no word: minus half the word's points, but the score never goes
    below 0. A real word that is not in this game's list, a guess of another
    length, or with letters not on the tiles, costs nothing. hint puts the next
    letter in its place (−\(level.points)); shuffle mixes the tiles again; skip shows the
    word (no points). After \(level.seconds) s the word is shown and the next comes.
    quit ends the round; the score is saved as you go.
    """
  }
}

extension AnagramMode: Mode {
  public mutating func handle(_ line: String, in state: inout SessionState) -> ModeStep {
    return .after(respond(line, in: &state))
  }

  public mutating func tick(in state: inout SessionState) -> ModeStep {
    return .after(timePassed(in: &state))
  }

  public mutating func finish(in state: inout SessionState) -> Reply { Reply(summary(in: &state)) }

  public func completions(isFirstWord: Bool, before: String, state: SessionState) -> [String] {
    isFirstWord ? ["hint", "shuffle", "skip", "quit", "help"] : []
  }

  /// The prompt counts the word's time down; when it runs out, what was being typed was for
  /// the word that has gone.
  public var input: InputPolicy { InputPolicy(promptIsLive: true, dropsTypedTextOnTick: true) }
}
