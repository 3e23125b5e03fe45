import Foundation
import SQLite
import Testing

@testable import ReckonSession

/// The trivia quiz through the release binary: a daily challenge that survives `kill -9`,
/// and question files given on the command line.
@Suite struct TriviaEndToEndTests {
  static func environment(_ home: String) -> [String: String] { DrillEndToEndTests.environment(home: home) }

  /// Started, killed with `kill -9`, restarted: the same question, with the time it had.
  @Test func aDailyChallengeKilledMidwayResumesWithItsQuestionAndTime() throws {
    let home = try TemporaryFolder()
    defer { home.remove() }
    let binary = try ReckonBinary.release()
    let first = try LiveProcess(executable: binary, arguments: [], environment: Self.environment(home.path))
    try first.send("daily easy")
    try first.expectLine(matching: #/Daily challenge, .*/#)
    let question = try first.expectLine(matching: #/.*\?/#)
    Thread.sleep(forTimeInterval: 2.3)
    // A line that is not an answer: acknowledged, and the time so far saved with it.
    try first.send("not sure")
    try first.expectLine(matching: #/.* is not one of the answers.*/#)
    first.killNow()

    #expect(try DrillEndToEndTests.integrityCheck(home.path + "/reckon.sqlite") == ["ok"])

    let overview = try ReckonProcess.run(["-e", "daily"], environment: Self.environment(home.path), executable: binary)
    #expect(
      overview.lines.contains { $0.wholeMatch(of: #/ *easy +in progress +0:02 so far/#) != nil }, "\(overview.lines)")
    let second = try LiveProcess(executable: binary, arguments: [], environment: Self.environment(home.path))
    try second.send("daily easy")
    try second.expectLine(matching: #/Resuming today's easy challenge at 0:02\./#)
    #expect(try second.expectLine(matching: #/.*\?/#) == question)
    try second.send("a")
    try second.expectLine(matching: #/✓ .*, in 0:0\d\.|✗ The answer is .* \(0:0\d\)\./#)
    // Answered: locked for the rest of the day, in any Reckon.
    let locked = try ReckonProcess.run(
      ["-e", "daily easy"], environment: Self.environment(home.path), executable: binary)
    #expect(locked.lines.first?.hasPrefix("You have answered today's easy challenge: ") == true, "\(locked.lines)")
  }

  @Test func questionFilesOnTheCommandLineJoinTheQuiz() throws {
    let home = try TemporaryFolder()
    defer { home.remove() }
    let file = home.path + "/mine.csv"
    var text = "category,difficulty,question,correctAnswer,incorrect1,incorrect2,incorrect3\n"
    for i in 0..<100_000 {
      text +=
        "Topic \(i % 4),\(["easy", "medium", "hard"][i % 3]),\"Question \(i), in full?\",Right,Wrong 1,Wrong 2,Wrong 3\n"
    }
    text += "Topic 0,expert,One bad row?,A,B,C,D\n"
    try text.write(toFile: file, atomically: true, encoding: .utf8)
    let run = try ReckonProcess.run(
      ["--questions", file, "-e", "quiz categories"], environment: Self.environment(home.path),
      executable: try ReckonBinary.release())
    #expect(run.status == 0)
    let builtIn = BuiltInQuestions.bank
    #expect(
      run.lines.first == "\(builtIn.categories.count + 4) categories, \((builtIn.count + 100_000).grouped) questions:")
    #expect(run.lines.contains { $0.hasPrefix("  Topic 3 ") && $0.hasSuffix(" 25,000") })
    #expect(
      run.stderr
        == "reckon: \(file): line 100002: unknown difficulty 'expert' (easy, medium or hard)\n"
        + "reckon: \(file): loaded 100,000 questions in 4 categories (CSV), skipped 1 row; the quiz now has "
        + "\((builtIn.count + 100_000).grouped)\n")
  }

  /// In a script, every row skipped and the summary go to stderr, none cut short, and stdout
  /// is the results alone; at the prompt they are shown as the session says them.
  @Test func everySkippedRowOfAQuestionFileIsOnStderrInAScript() throws {
    let home = try TemporaryFolder()
    defer { home.remove() }
    var rows = ["category*difficulty*question*correctAnswer*incorrect1*incorrect2*incorrect3"]
    rows += (1...3).map { "Cat*easy*Good question \($0)?*A*B*C*D" }
    rows += (1...25).map { "Cat*expert*Bad question \($0)?*A*B*C*D" }
    try (rows.joined(separator: "\n") + "\n").write(toFile: home.path + "/mine.txt", atomically: true, encoding: .utf8)
    let run = try ReckonProcess.run(
      ["--questions", "mine.txt", "-e", "1+1"], environment: Self.environment(home.path), directory: home.path,
      executable: try ReckonBinary.release())
    #expect(run.status == 0)
    #expect(run.stdout == "2\n")
    let expected =
      (5...29).map { "reckon: mine.txt: line \($0): unknown difficulty 'expert' (easy, medium or hard)" } + [
        "reckon: mine.txt: loaded 3 questions in 1 category (star-separated), skipped 25 rows; the quiz now has "
          + (BuiltInQuestions.bank.count + 3).grouped
      ]
    #expect(run.stderr.split(separator: "\n").map(String.init) == expected)
  }

  @Test(arguments: [
    ("missing.csv", "cannot read it: no such file or directory"),
    (".", "cannot read it: it is a folder"),
  ])
  func aQuestionFileThatCannotBeReadStopsReckon(_ name: String, _ why: String) throws {
    let home = try TemporaryFolder()
    defer { home.remove() }
    let run = try ReckonProcess.run(
      ["--questions", name, "-e", "1+1"], environment: Self.environment(home.path), directory: home.path,
      executable: try ReckonBinary.release())
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(run.stderr == "reckon: --questions \(name): error: \(why); nothing loaded\n")
  }
}
