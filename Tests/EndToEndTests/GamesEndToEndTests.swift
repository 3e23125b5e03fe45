import Foundation
import SQLite
import Testing

/// The personality quizzes and the anagram game through the release binary: a word list
/// on the command line, the level table from the settings folder, and what is saved.
@Suite struct GamesEndToEndTests {
  static func environment(_ home: String) -> [String: String] { DrillEndToEndTests.environment(home: home) }

  /// A round on a pipe with the user's list: only its playable words come up, and the
  /// round is saved when the input ends.
  @Test func aWordListOnTheCommandLineIsFilteredAndPlayed() throws {
    let home = try TemporaryFolder()
    defer { home.remove() }
    let words = ["stone", "notes", "heart", "earth", "cheap", "Paris", "cat's", "café", "damn", "night", "lemon"]
    try (words.joined(separator: "\n") + "\n").write(toFile: home.path + "/words", atomically: true, encoding: .utf8)
    let input = Data(("anagram\n" + Array(repeating: "skip\n", count: 3).joined()).utf8)
    let run = try ReckonProcess.run(
      ["--words", home.path + "/words"], input: input, environment: Self.environment(home.path),
      executable: try ReckonBinary.release())
    #expect(run.status == 0, "\(run.stderr)")
    // In a script, what the list gave goes to stderr, in one line.
    #expect(
      run.stderr
        == "reckon: \(home.path)/words: loaded 7 words, left out 1 proper noun, 1 with an apostrophe, "
        + "1 with other characters, 1 on the blocked list; playable: 5 easy, 0 medium, 0 hard\n")
    // Three skips end a round of the list's five sets of letters after three words.
    let skipped = run.lines.compactMap { $0.firstMatch(of: #/Skipped: the word was ([A-Z]+)\./#)?.1 }
    #expect(skipped.count == 3, "\(run.lines)")
    let playable: Set = ["STONE", "NOTES", "HEART", "EARTH", "CHEAP", "NIGHT", "LEMON"]
    #expect(skipped.allSatisfy { playable.contains(String($0)) })
    #expect(run.lines.contains("Only 5 words of 4–5 letters in \(home.path)/words."), "\(run.lines)")
    #expect(
      run.lines.contains(
        "Type the word; hint, shuffle, skip, quit. A guess that is no word costs half the word's points."))
    #expect(run.lines.contains("Round over after 3 of 5 words: 0 points, 0 of 3 words solved."))
    let saved = try Database(home.path + "/reckon.sqlite", flags: .readOnly).first(
      """
      SELECT data ->> 'level', data ->> 'played', finished FROM gameResult WHERE game = 'anagram'
      """
    ) { (row) throws(SQLiteError) in
      (level: try row[0] as String, played: try row[1] as Int, finished: try row[2] as Bool)
    }
    #expect(saved?.level == "easy")
    #expect(saved?.played == 3)
    #expect(saved?.finished == false)  // the input ended before the round did
  }

  @Test func aWordListWithNothingToPlayStopsReckon() throws {
    let home = try TemporaryFolder()
    defer { home.remove() }
    try "Paris\nLondon\ncat's\n".write(toFile: home.path + "/names", atomically: true, encoding: .utf8)
    let run = try ReckonProcess.run(
      ["--words", "names", "-e", "1+1"], environment: Self.environment(home.path), directory: home.path,
      executable: try ReckonBinary.release())
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(
      run.stderr
        == "reckon: --words names: error: it has no words of lowercase a–z only; left out 2 proper nouns, 1 with an apostrophe\n"
    )
    let missing = try ReckonProcess.run(
      ["--words", "nope", "-e", "1+1"], environment: Self.environment(home.path), directory: home.path,
      executable: try ReckonBinary.release())
    #expect(missing.status == 1)
    #expect(missing.stderr == "reckon: --words nope: error: cannot read it: no such file or directory\n")
  }

  /// Issue 30: a real word that the game's list lacks is looked up in the system's word list
  /// (/usr/share/dict/words: `scripts/deps` installs wamerican) and costs nothing.
  @Test func aRealWordTheListLacksIsFoundInTheSystemsWordList() throws {
    #expect(
      FileManager.default.fileExists(atPath: "/usr/share/dict/words"),
      "no /usr/share/dict/words: scripts/deps installs wamerican")
    let home = try TemporaryFolder()
    defer { home.remove() }
    try "listen\n".write(toFile: home.path + "/mine.txt", atomically: true, encoding: .utf8)
    let run = try ReckonProcess.run(
      ["--words", home.path + "/mine.txt"], input: Data("anagram medium\nsilent\nnestil\nlisten\n".utf8),
      environment: Self.environment(home.path), executable: try ReckonBinary.release())
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.lines.contains("SILENT is a word, but not in this game's list: it costs nothing. Try another."))
    #expect(run.lines.contains { $0.hasPrefix("✗ NESTIL is not in the word list") }, "\(run.lines)")
    #expect(run.lines.contains("Round over: 90 points, 1 of 1 word solved (1 wrong guess)."), "\(run.lines)")
  }

  /// The level table in the settings folder (RECKON_HOME here) is the one played.
  @Test func theUsersLevelTableIsUsed() throws {
    let home = try TemporaryFolder()
    defer { home.remove() }
    try "easy 4 10 3\n".write(toFile: home.path + "/anagram-levels.txt", atomically: true, encoding: .utf8)
    let run = try ReckonProcess.run(
      ["-e", "anagram levels", "-e", "anagram", "-e", "quit"], environment: Self.environment(home.path),
      executable: try ReckonBinary.release())
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.lines.contains { $0.wholeMatch(of: #/ *easy +4 +common +10 +3/#) != nil }, "\(run.lines)")
    #expect(run.lines.contains("Anagrams for tester, easy: 10 words of 4 letters, 10 s each, 3 points a letter."))
  }

  /// A whole personality quiz on a pipe; its result is in the history afterwards.
  @Test func aPersonalityResultIsSaved() throws {
    let home = try TemporaryFolder()
    defer { home.remove() }
    let answers = Array(repeating: "1", count: 8).joined(separator: "\n")
    let run = try ReckonProcess.run(
      [], input: Data("personality animal\n\(answers)\n".utf8), environment: Self.environment(home.path),
      executable: try ReckonBinary.release())
    #expect(run.status == 0, "\(run.stderr)")
    let result = try #require(run.lines.first { $0.hasPrefix("You are: ") })
    // Worked out by hand from animal.json: "1" is each question's first answer (a scale's
    // low end), which gives the fox and the tortoise four picks each, and the tie goes to the
    // fox, listed before the tortoise.
    #expect(result == "You are: Fox 🦊", "\(run.lines)")
    let stats = try ReckonProcess.run(
      ["-e", "stats personality"], environment: Self.environment(home.path), executable: try ReckonBinary.release())
    let outcome = result.dropFirst("You are: ".count)
    #expect(
      stats.lines.contains { $0.contains("Which animal are you?") && $0.contains(outcome) }, "\(stats.lines)")
  }

  /// A quiz file with problems: the error and every problem under it come on one stream
  /// (stderr in a script), none of them cut short.
  @Test func aPersonalityFilesProblemsAllGoToTheErrorStream() throws {
    let home = try TemporaryFolder()
    defer { home.remove() }
    // 25 unknown keys: more than the 20 that used to be shown.
    let keys = (1...25).map { "\"extra\($0)\": 1" }.joined(separator: ",\n")
    try "{\n\(keys)\n}\n".write(toFile: home.path + "/bad.json", atomically: true, encoding: .utf8)
    let run = try ReckonProcess.run(
      ["-e", "personality load bad.json"], environment: Self.environment(home.path), directory: home.path,
      executable: try ReckonBinary.release())
    #expect(run.status == 1)
    #expect(run.stdout == "")
    let lines = run.stderr.split(separator: "\n").map(String.init)
    #expect(lines.first?.hasPrefix("reckon: -e:1:18: error: nothing loaded from bad.json: ") == true, "\(lines)")
    for n in 1...25 {
      #expect(lines.contains { $0.hasPrefix("reckon: -e:1: line \(n + 1): extra\(n): unknown key") }, "\(lines)")
    }
  }
}
