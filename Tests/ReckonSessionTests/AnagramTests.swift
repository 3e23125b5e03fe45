import ReckonData
import ReckonStore
import Testing

@testable import ReckonSession

/// The anagram game: its word lists, its level table, its tiles and its score.
@Suite struct AnagramTests {
  /// Issue 30: at least 20,000 common words (SCOWL's size 35), the common ones first, and
  /// each level with words enough.
  @Test func theBuiltInListIsCleanAndLargeEnough() {
    let file = WordList.builtIn
    #expect(file.words.count >= 20_000)
    // The first file's words are the common ones, all of them and only them.
    let common = reckon_data_words()
    let commonWords = String(decoding: UnsafeBufferPointer(start: common.bytes, count: Int(common.size)), as: UTF8.self)
      .split(separator: "\n").dropFirst().map(String.init)
    #expect(file.common == commonWords.count && Array(file.words.prefix(file.common)) == commonWords)
    #expect(file.common >= 10_000 && file.common < file.words.count)
    // Words of every kind people type.
    for word in ["opts", "cats", "walked", "running", "happiest", "grandma", "quickly"] {
      #expect(file.anagrams(of: word).contains(word), "\(word)")
    }
    // No names (capitalised in SCOWL) nor abbreviations.
    for word in ["paris", "london", "usa", "etc"] { #expect(!file.words.contains(word), "\(word)") }
    #expect(file.words.allSatisfy { $0.unicodeScalars.allSatisfy { ("a"..."z").contains($0) } })
    #expect(Set(file.words).count == file.words.count)
    #expect(WordList.blocked.isDisjoint(with: file.words))
    #expect(WordList.blocked.count > 100)
    for level in AnagramLevels.defaults {
      #expect(file.words(lengths: level.letters, commonOnly: level.commonWords).count >= 1_500, "\(level.name)")
      #expect(file.puzzles(lengths: level.letters, commonOnly: level.commonWords) >= 1_000, "\(level.name)")
    }
    // The easy and medium levels ask common words only, the hard one any.
    #expect(file.words(lengths: 4...5, commonOnly: true).allSatisfy { file.words.firstIndex(of: $0)! < file.common })
    #expect(file.words(lengths: 7...8).count > file.words(lengths: 7...8, commonOnly: true).count)
    #expect(file.anagrams(of: "listen").sorted() == ["enlist", "inlets", "listen", "silent", "tinsel"])
    #expect(file.accepts("silent", for: "listen"))
    #expect(!file.accepts("listen", for: "stone"))
  }

  /// Each line of a list and whether it is kept, or why not.
  @Test(arguments: [
    ("apple", "kept"), ("  apple\r", "kept"), ("Paris", "proper noun"), ("cat's", "with an apostrophe"),
    ("cat’s", "with an apostrophe"), ("café", "with other characters"), ("well-known", "with other characters"),
    ("x2", "with other characters"), ("iPhone", "with other characters"), ("damn", "on the blocked list"),
    ("# a comment", "nothing"), ("", "nothing"),
  ])
  func filtersEachLine(_ line: String, _ expected: String) {
    let (list, report) = WordList.read(Array(line.utf8))
    switch expected {
    case "kept": #expect(list.words == [line.trimmingSpaces.replacingOccurrences("\r", "")])
    case "nothing": #expect(list.words.isEmpty && report.skipped.isEmpty)
    default:
      #expect(list.words.isEmpty)
      #expect(report.skipped == "1 \(expected)")
    }
  }

  /// A line over the limit is no word: it is skipped as soon as it passes the limit, unread,
  /// and counted with its line; the words around it are kept, repeats left out, and each set
  /// of letters is one puzzle.
  @Test func anOverlongLineIsSkippedWithItsLine() {
    let long = Array(repeating: UInt8(ascii: "a"), count: WordList.maxLineBytes + 1)
    let (list, report) = WordList.read(
      Array("stone\r\n".utf8) + long + Array("\nnotes\nonset\n".utf8) + long + Array("\nstone\ntones".utf8))
    #expect(list.words == ["stone", "notes", "onset", "tones"])
    #expect(report.tooLong == 2)
    #expect(report.skipped == "1 repeat, 2 lines longer than 1,024 bytes (the first at line 2)")
    #expect(list.anagrams(of: "onest") == ["stone", "notes", "onset", "tones"])
    #expect(list.puzzles(lengths: 5...5) == 1)
    let one = WordList.read(Array(repeating: UInt8(ascii: "z"), count: 5_000)).1
    #expect(one.skipped == "1 line longer than 1,024 bytes (line 1)")
  }

  /// A list larger than its budget is refused before a byte is read, saying how large it is;
  /// one that cannot be read says why; nothing is used from either.
  @Test func aListTooLargeOrUnreadableIsRefused() {
    var state = testSession().state
    state.files = MemoryFiles(["big.txt": Array(repeating: UInt8(ascii: "\n"), count: WordList.maxFileBytes + 1)])
    guard case .failure(let big) = state.useWords(from: "big.txt") else {
      Issue.record("a list over the budget was used")
      return
    }
    #expect(
      big.message
        == "it is larger than 32 MiB (33,554,433 bytes): a word list may be at most that, so none of it was read")
    state.files = FailingFiles(after: 70_000)
    guard case .failure(let failing) = state.useWords(from: "any") else {
      Issue.record("a list that failed to read was used")
      return
    }
    #expect(failing.message == "cannot read it: input/output error (after 65,536 bytes)")
  }

  @Test func aLatin1ListKeepsItsPlainWords() {
    let (list, report) = WordList.read([0x63, 0x61, 0x66, 0xE9, 0x0A] + Array("table\ntable\n".utf8))
    #expect(list.words == ["table"])
    #expect(report.skipped == "1 with other characters, 1 repeat")
  }

  @Test func levelTablesOverrideAndAdd() throws {
    let levels = try AnagramLevels.read("# mine\nEASY 3-4 20 5\n\nexpert 9-10 120 30 # long ones\n").get()
    #expect(levels.map(\.name) == ["easy", "medium", "hard", "expert"])
    // A level of the defaults keeps its words unless the line says; a new one asks all.
    #expect(levels[0] == AnagramLevel(name: "easy", letters: 3...4, seconds: 20, points: 5, commonWords: true))
    #expect(!levels[3].commonWords)
    let chosen = try AnagramLevels.read("easy 4 60 10 all\nlong 9 90 30 common\n").get()
    #expect(!chosen[0].commonWords && chosen[3].commonWords)
    #expect(levels[3].lettersLabel == "9–10")
    #expect(levels[1] == AnagramLevels.defaults[1])
  }

  @Test(arguments: [
    (
      "easy 4-5 60",
      "line 1: expected 4 columns and a fifth if you like (level letters seconds points [common|all], like: "
        + "easy 4-5 60 10), found 3"
    ),
    ("easy 4-5 60 10 some", #"line 1: words "some" should be common or all"#),
    ("easy 5-4 60 10", #"line 1: letters "5-4" should be a length from 3 to 15, or two (4-5)"#),
    ("easy 2 60 10", #"line 1: letters "2" should be a length from 3 to 15, or two (4-5)"#),
    ("easy x 60 10", #"line 1: letters "x" should be a length from 3 to 15, or two (4-5)"#),
    ("easy 4 4 10", #"line 1: seconds "4" should be a whole number from 5 to 3600"#),
    ("easy 4 60 0", #"line 1: points "0" should be a whole number from 1 to 1000"#),
    ("é 4 60 10", #"line 1: the level's name "é" should be up to 16 letters a–z"#),
    ("hard 7 30 20\nhard 8 30 20", "line 2: hard is in the table twice"),
  ])
  func levelTableProblems(_ text: String, _ expected: String) {
    guard case .failure(let problems) = AnagramLevels.read(text) else {
      Issue.record("accepted \(text)")
      return
    }
    #expect(problems.all.map(\.description) == [expected])
  }

  /// Tiles never spell the word (nor, where there is another order, any word of its letters),
  /// with or without letters placed by hints.
  @Test func tilesNeverSpellTheWord() {
    let list = WordList.builtIn
    var random = SeededRandom(seed: 7)
    var checked = 0
    for (i, word) in list.words.enumerated() where word.utf8.count >= 4 && i % 3 == 0 {
      for fixed in 0..<(word.utf8.count - 1) where Tiles.canScramble(word, fixed: fixed) {
        let tiles = Tiles.scramble(word, fixed: fixed, accepted: { list.accepts($0, for: word) }, random: &random)
        #expect(tiles.joined() != word)
        #expect(WordList.letters(of: tiles.joined()) == WordList.letters(of: word))
        #expect(tiles.prefix(fixed).joined() == String(word.prefix(fixed)))
        checked += 1
      }
    }
    #expect(checked > 5000)
    // Where every other order is a word, the tiles still differ from the word.
    let tiles = Tiles.scramble("ab", fixed: 0, accepted: { _ in true }, random: &random)
    #expect(tiles == ["b", "a"])
  }

  /// Whatever is typed, in whatever order, and however long it takes, the score never goes
  /// below zero, and each word's tiles never spell it.
  @Test(arguments: 0..<20)
  func theScoreIsNeverNegative(_ seed: Int) {
    let clock = ManualClock()
    var session = testSession(seed: UInt64(seed), clock: clock)
    var random = SeededRandom(seed: UInt64(1000 + seed))
    let level = ["easy", "medium", "hard"][seed % 3]
    _ = session.handle("anagram \(level)")
    var rounds = 1
    for _ in 0..<400 {
      guard let round = session.mode as? AnagramMode else {
        _ = session.handle("anagram \(level)")
        rounds += 1
        continue
      }
      #expect(round.score >= 0)
      #expect(round.tiles.joined() != round.word)
      switch random.next() % 9 {
      case 0: _ = session.handle("hint")
      case 1: _ = session.handle("shuffle")
      case 2: _ = session.handle("skip")
      case 3: _ = session.handle(round.word)
      case 4: clock.advance(milliseconds: Int64(random.next() % 70_000))
      case 5: _ = session.tick()
      case 6: _ = session.handle(String(round.word.reversed()))
      default: _ = session.handle(["zzzz", "abc", "tip", "12", ""][Int(random.next() % 5)])
      }
      if let after = session.mode as? AnagramMode { #expect(after.score >= 0) }
    }
    #expect(rounds > 1)
  }

  /// No word of a round is also a word the round obeys, nor made of the same letters as one
  /// (node, thin): typing it must do one thing only.
  @Test func noWordClashesWithACommand() {
    let list = WordList.builtIn
    #expect(list.words.contains("node") && list.words.contains("thin") && list.words.contains("skip"))
    var random: any RandomSource = SeededRandom(seed: 3)
    var seen: Set<String> = []
    for level in AnagramLevels.defaults + [AnagramLevel(name: "x", letters: 4...4, seconds: 9, points: 1)] {
      for _ in 0..<200 {
        let words = AnagramMode.pick(level, from: list, count: 10, random: &random)
        #expect(words.count == 10)
        #expect(Set(words.map(WordList.letters(of:))).count == 10)
        seen.formUnion(words)
      }
    }
    let clashes = seen.filter { word in list.anagrams(of: word).contains(where: AnagramMode.commands.contains) }
    #expect(clashes.isEmpty, "\(clashes)")
    #expect(seen.count > 1000)
  }

  /// The clock: the prompt counts down, and a tick after the time shows the word and the next.
  @Test func theTimeRunsOutOnTheTick() {
    let clock = ManualClock()
    var session = testSession(clock: clock)
    _ = session.handle("anagram hard")
    #expect(session.input.promptIsLive)
    #expect(session.prompt == "anagram 1/10 0:45> ")
    clock.advance(milliseconds: 12_500)
    #expect(session.prompt == "anagram 1/10 0:33> ")
    #expect(session.tick().outputs.isEmpty)
    guard let before = session.mode as? AnagramMode else {
      Issue.record("the round did not start: \(type(of: session.mode))")
      return
    }
    clock.advance(milliseconds: 32_500)
    let reply = plain(session.tick())
    #expect(reply.first == "Time's up: the word was \(before.word.uppercased()).")
    #expect(session.prompt == "anagram 2/10 0:45> ")
  }

  /// Rounds are saved after every word, so leaving keeps them; the best is per level.
  /// A pasted page is not echoed back whole, in a round or a quiz.
  @Test func aLongGuessIsShownByItsEnds() throws {
    let long = String(repeating: "ab", count: 1_500)
    let slip = try #require(AnagramMode.slip(long, tiles: "listen"))
    #expect(slip.hasPrefix("ABABABABABABABABABAB…ABABABABABABABABABAB has 3,000 letters"), "\(slip)")
    #expect(slip.count < 200)
    let question = TriviaQuestion(
      category: "Places", difficulty: .easy, text: "Largest Swiss city?", correct: "Zürich",
      incorrect: ["Bern", "Geneva", "Basel"])
    var random = SeededRandom(seed: 0)
    let reply = notAnAnswer(String(repeating: "x", count: 3_000), Choices(question, random: &random))
    #expect(reply.contains("(3,000 characters) is not one of the answers") && reply.count < 200, "\(reply)")
  }

  /// Issue 30: a real word the game's list lacks (in the system's larger dictionary) costs
  /// nothing and says so; letters that are no word still cost half the word's points.
  @Test func aRealWordNotInTheGamesListCostsNothing() throws {
    var session = testSession()
    session.state.files = MemoryFiles([
      "mine.txt": Array("listen\n".utf8),
      "/usr/share/dict/words": Array("Lisbon\nlisten\nsilent\ntinsel\nenlist's\n".utf8),
    ])
    guard case .success = session.state.useWords(from: "mine.txt") else {
      Issue.record("the list did not load")
      return
    }
    _ = session.handle("anagram medium")
    #expect(session.handle("listen").outputs.contains { if case .feedback(true, _) = $0 { true } else { false } })
    // One word a round: a second round to guess in.
    _ = session.handle("quit")
    _ = session.handle("anagram medium")
    let scored = try #require((session.mode as? AnagramMode)?.score)
    #expect(
      plain(session.handle("silent")) == [
        "SILENT is a word, but not in this game's list: it costs nothing. Try another."
      ])
    #expect((session.mode as? AnagramMode)?.score == scored)
    #expect((session.mode as? AnagramMode)?.wrong == 0)
    #expect(plain(session.handle("tinsel")).first?.contains("not in this game's list") == true)
    // Not a word anywhere: the cost, as before.
    #expect(plain(session.handle("nestil")).first?.hasPrefix("✗ NESTIL is not in the word list") == true)
    #expect((session.mode as? AnagramMode)?.wrong == 1)
    // Without a dictionary (none on the system), a word the list lacks is a wrong guess.
    var bare = testSession()
    bare.state.files = MemoryFiles(["mine.txt": Array("listen\n".utf8)])
    _ = bare.state.useWords(from: "mine.txt")
    _ = bare.handle("anagram medium")
    #expect(plain(bare.handle("silent")).first?.hasPrefix("✗ SILENT is not in the word list") == true)
  }

  @Test func roundsAreSavedAsTheyGo() throws {
    let store = SQLiteStore.inMemory()
    var session = testSession(store: store)
    _ = session.handle("anagram medium")
    guard let round = session.mode as? AnagramMode else {
      Issue.record("the round did not start: \(type(of: session.mode))")
      return
    }
    _ = session.handle(round.word)
    let saved = try store.anagramRounds(profile: "ada")
    #expect(saved.count == 1)
    #expect(saved.first?.score == round.value)
    #expect(saved.first?.played == 1)
    #expect(saved.first?.finished == false)
    // Left after one word: kept, and marked as not played to the end.
    _ = session.handle("quit")
    #expect(try store.anagramRounds(profile: "ada") == saved)
    #expect(saved.first?.finished == false)
  }

  /// The best so far is the highest of every earlier round of the level, not the last or the
  /// lowest: three earlier rounds, the best in the middle.
  @Test func theBestIsTheHighestOfEveryEarlierRound() throws {
    let store = SQLiteStore.inMemory()
    let clock = ManualClock()
    var session = testSession(clock: clock, store: store)
    /// Plays a round of easy: solves `solved` words, skips one, and leaves. Returns its score.
    /// (A round is saved under the time it started: each starts a minute after the last.)
    func play(solving solved: Int) throws -> Int {
      clock.advance(milliseconds: 60_000)
      _ = session.handle("anagram easy")
      var score = 0
      for _ in 0..<solved {
        guard let round = session.mode as? AnagramMode else { throw Failure("the round is not running") }
        _ = session.handle(round.word)
        score += round.value
      }
      _ = session.handle("skip")
      let end = plain(session.handle("quit"))
      lastEnding = end
      return score
    }
    var lastEnding: [String] = []
    let first = try play(solving: 1)
    let second = try play(solving: 3)
    let third = try play(solving: 0)
    #expect(second > first && first > third)
    #expect(lastEnding.contains("Your best for easy is \(second)."), "\(lastEnding)")
    _ = try play(solving: 2)
    #expect(lastEnding.contains("Your best for easy is \(second)."), "\(lastEnding)")
    _ = try play(solving: 4)
    #expect(lastEnding.contains("A new best for easy! (It was \(second).)"), "\(lastEnding)")
    #expect(try store.anagramRounds(profile: "ada").count == 5)
  }

  struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }
}
