import Foundation
import ReckonSession
import SQLite
import Testing

@testable import ReckonStore

/// The database the last GRDB release wrote (Fixtures/grdb-release.sqlite, made by
/// Fixtures/make-grdb-fixture through that release's binary): the store opens it with every
/// answer, setting and result as it was, and goes on saving.
@Suite struct GRDBFixtureTests {
  static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/grdb-release.sqlite").path

  /// A copy of the fixture as `reckon.sqlite` in a temporary folder (the fixture itself is
  /// never opened for writing).
  static func copy() throws -> (SQLiteStoreTests.Folder, String) { try copy(of: fixture) }

  /// A copy of a fixture database as `reckon.sqlite` in a temporary folder, as the release
  /// that wrote it left it for its user: mode 0600 (a copy takes the repository's 0644, which
  /// the store would tighten, and say so).
  static func copy(of fixture: String) throws -> (SQLiteStoreTests.Folder, String) {
    let folder = try SQLiteStoreTests.Folder()
    let path = folder.path + "/reckon.sqlite"
    try FileManager.default.copyItem(atPath: fixture, toPath: path)
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
    return (folder, path)
  }

  /// Every row of a table in rowid order, as `sqlite3` prints them: values between `|`,
  /// NULL as nothing.
  static func rows(_ table: String, in path: String) throws -> String {
    let db = try Database(path, flags: .readOnly)
    return try db.all("SELECT * FROM \(table) ORDER BY rowid") { (row) throws(SQLiteError) in
      (0..<row.count).map(row.text).joined(separator: "|")
    }.joined(separator: "\n")
  }

  /// The fixture's rows, table by table, exactly (sqlite3 .dump of the file committed).
  static let expected: [(table: String, rows: String)] = [
    (
      "profile",
      """
      ada|1800003601681
      bob|1800037801603
      zoë|1800043201508
      """
    ),
    (
      "setting",
      """
      ada|digits|14
      ada|tips|12 15 20
      ada|drill|7,8 max 10 random count 5 ×
      bob|drill|2,3 max 12 random count 6 +
      bob|digits|5
      zoë|digits|3
      """
    ),
    (
      "answer",
      """
      1|ada|drill|7×2|14|1|2508|1800003607708|20833||
      2|ada|drill|7×3|21|1|3039|1800003610751|20833||
      3|ada|drill|7×4|29|0|4160|1800003614917|20833||
      4|ada|drill|7×6|42|1|2502|1800003622584|20833||
      5|ada|drill|7×7|49|1|3006|1800003625597|20833||
      6|ada|drill|7×4|29|0|3004|1800003628606|20833||
      7|ada|drill|7×8|56|1|2004|1800003630614|20833||
      8|ada|quiz|fe372d909621612a|Jordan|1|3981|1800003636123|20833|Geography|hard
      9|ada|quiz|0dbdaab3f0fb5f83|Tiberius|0|4001|1800003640124|20833|History|medium
      10|ada|quiz|9852bda607d4595d|Auguste Mariette|0|4472|1800003644596|20833|History|hard
      11|ada|quiz|7781b93a7e4f8892|Claude Monet|0|4041|1800003648637|20833|Arts & Literature|easy
      12|ada|daily|4929542483fc5c88|56|1|10007|1800003660152|20833|Mathematics|easy
      13|bob|drill|2+6|8|1|2504|1800037804110|20833||
      14|bob|drill|2+7|9|1|3003|1800037807118|20833||
      15|bob|drill|2+3|5|1|3503|1800037810625|20833||
      16|bob|drill|2+5|8|0|3003|1800037813634|20833||
      17|bob|drill|3+7|10|1|2503|1800037816141|20833||
      18|bob|drill|2+9|11|1|3003|1800037819148|20833||
      19|bob|quiz|9daf58291ba98012|Median|0|4983|1800037827160|20833|Mathematics|medium
      20|bob|quiz|fc20b3f6737f7167|David Hilbert|0|5002|1800037832162|20833|Mathematics|hard
      21|ada|drill|7×4|28|1|2505|1800093604065|20834||
      22|ada|drill|7×5|35|1|3003|1800093607074|20834||
      23|ada|drill|7×3|21|1|3513|1800093610590|20834||
      24|ada|drill|7×7|49|1|2004|1800093612598|20834||
      25|ada|drill|7×2|14|1|2503|1800093615105|20834||
      26|ada|drill|7×6|42|1|3003|1800093618112|20834||
      27|ada|drill|7×8|56|1|3536|1800093621652|20834||
      28|ada|daily|eddc5323233ca428|French|1|8007|1800093631182|20834|Words & Language|easy
      29|bob|daily|b04d4b448288a595|Pythagoras' constant|0|20007|1800097221572|20834|Mathematics|medium
      30|ada|drill|7×4|28|1|2504|1800344704186|20837||
      31|ada|drill|7×5|35|1|3005|1800344707195|20837||
      32|ada|drill|7×3|21|1|3504|1800344710704|20837||
      33|ada|drill|7×8|56|1|2045|1800344712754|20837||
      34|ada|drill|7×6|42|1|2504|1800344715262|20837||
      35|ada|drill|7×2|14|1|3004|1800344718272|20837||
      36|ada|drill|7×7|49|1|3504|1800344721780|20837||
      37|ada|drill|8×7|56|1|2504|1800344725859|20837||
      38|ada|drill|8×5|40|1|3503|1800344734371|20837||
      39|ada|drill|7×7|49|1|2004|1800344736380|20837||
      40|ada|drill|8×2|16|1|2504|1800344738888|20837||
      """
    ),
    (
      "factState",
      """
      ada|drill|7×2|4|1800921600000|0
      ada|drill|7×3|4|1800921600000|0
      ada|drill|7×4|3|1800576000000|0
      ada|drill|7×5|3|1800576000000|1
      ada|drill|7×6|4|1800921600000|0
      ada|drill|7×7|4|1800921600000|0
      ada|drill|7×8|4|1800921600000|0
      bob|drill|2+6|2|1800057600000|0
      bob|drill|2+7|2|1800057600000|0
      bob|drill|2+3|2|1800057600000|0
      bob|drill|2+5|1|1800037813634|0
      bob|drill|3+7|2|1800057600000|0
      bob|drill|2+9|2|1800057600000|0
      ada|drill|8×7|2|1800403200000|0
      ada|drill|8×4|1|1800344729866|1
      ada|drill|8×5|2|1800403200000|0
      ada|drill|8×2|2|1800403200000|0
      """
    ),
    (
      "daily",
      """
      ada|20833|easy|4929542483fc5c88|10007|1|1|56|1800003660152
      ada|20833|medium|27306b37652105ce|15006|0|0||1800003676672
      ada|20834|easy|eddc5323233ca428|8007|1|1|French|1800093631182
      ada|20834|hard|b3fc8b9f09ad71aa|5005|0|0||1800093642703
      bob|20834|medium|b04d4b448288a595|20007|1|0|Pythagoras' constant|1800097221572
      """
    ),
    (
      "personality",
      """
      1|ada|animal|Which animal are you?|Owl|🦉|Fox|1800003694220|20833
      2|ada|calculator|What kind of calculator are you?|Pocket Calculator|🔢|Supercomputer|1800093660712|20834
      """
    ),
    (
      "anagramRound",
      """
      ada|1800003695793|20833|easy|0|0|2|0
      ada|1800093662319|20834|easy|120|3|10|1
      """
    ),
  ]

  static let grdbMigrations = """
    v1: profiles, settings, answers, fact states
    v2: the local day of each answer
    v3: trivia answers and daily challenges
    v4: personality results and anagram rounds
    v5: how often each fact's answer was shown
    """

  /// The schema as `sqlite_master` holds it, but GRDB's own table.
  static func schema(_ path: String) throws -> [String] {
    try Database(path, flags: .readOnly).all(
      "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE tbl_name != 'grdb_migrations' ORDER BY name"
    ) { (row) throws(SQLiteError) in (0..<row.count).map(row.text).joined(separator: "|") }
  }

  /// A new database has the schema the GRDB release made, to the letter (the same tables,
  /// columns, types, constraints, defaults and indexes), but for what the migrations since
  /// changed: v6 put the personality results and anagram rounds into `gameResult`, and the
  /// modes' own tables (`modeTables` and theirs) are new. The fixture, upgraded, has exactly
  /// that schema too.
  @Test func aNewDatabaseHasTheSchemaTheGRDBReleaseMadeAndV6() throws {
    let folder = try SQLiteStoreTests.Folder()
    let path = folder.path + "/reckon.sqlite"
    _ = SQLiteStore.open(path: path)
    let fixture = try Self.schema(Self.fixture)
    #expect(fixture.count == 16)
    let gone = ["personality", "anagramRound"]
    let kept = fixture.filter { entry in !gone.contains { entry.split(separator: "|")[2] == $0 } }
    #expect(kept.count == fixture.count - 4)  // two tables, an index and a primary key's index
    let modes = ModeTablesMigrator.tableNames(of: RegisteredTables.all).union(["modeTables"])
    #expect(modes.isSuperset(of: ["bill", "billLine", "deckCard", "deckReview", "modeTables"]), "\(modes)")
    let all = try Self.schema(path)
    let new = all.filter { !modes.contains(String($0.split(separator: "|")[2])) }
    #expect(new.filter { !$0.contains("|gameResult|") } == kept)
    #expect(new.filter { $0.contains("|gameResult|") }.map { $0.split(separator: "|")[0] } == ["table", "index"])
    let (upgradedFolder, upgraded) = try Self.copy()
    defer { _ = upgradedFolder }
    _ = SQLiteStore.open(path: upgraded)
    #expect(try Self.schema(upgraded) == all)
  }

  /// What v6 made of the fixture's personality results and anagram rounds: a row each in
  /// `gameResult`, in their order, their own columns as JSON.
  static let gameResults = """
    1|ada|personality|1800003694220|20833|1|0|{"quiz":"animal","title":"Which animal are you?","outcome":"Owl","symbol":"🦉","runnerUp":"Fox"}
    2|ada|personality|1800093660712|20834|1|0|{"quiz":"calculator","title":"What kind of calculator are you?","outcome":"Pocket Calculator","symbol":"🔢","runnerUp":"Supercomputer"}
    3|ada|anagram|1800003695793|20833|0|0|{"level":"easy","solved":0,"played":2}
    4|ada|anagram|1800093662319|20834|1|120|{"level":"easy","solved":3,"played":10}
    """

  /// The fixture is as it was made: the test below checks an upgrade of exactly this.
  @Test func theFixtureHoldsEveryKindOfRow() throws {
    for (table, rows) in Self.expected {
      #expect(try Self.rows(table, in: Self.fixture) == rows, "\(table)")
    }
  }

  /// Opened by the store, every row of every table is still there, exactly, and reads back
  /// through the store as the sessions see it.
  @Test func theStoreOpensItWithEverythingAsItWas() throws {
    let (folder, path) = try Self.copy()
    defer { _ = folder }
    let store = SQLiteStore.open(path: path)
    #expect(store.warnings.isEmpty)
    #expect(store.path == path)
    for (table, rows) in Self.expected where !["personality", "anagramRound"].contains(table) {
      #expect(try Self.rows(table, in: path) == rows, "\(table)")
    }
    #expect(try Self.rows("gameResult", in: path) == Self.gameResults)

    #expect(
      try store.settings(profile: "ada") == [
        "digits": "14", "tips": "12 15 20", "drill": "7,8 max 10 random count 5 ×",
      ])
    #expect(try store.settings(profile: "bob") == ["drill": "2,3 max 12 random count 6 +", "digits": "5"])
    #expect(try store.settings(profile: "zoë") == ["digits": "3"])
    #expect(try store.settings(profile: "carol").isEmpty)
    #expect(
      try store.profiles() == [
        ProfileSummary(name: "ada", answers: 31, lastDay: Day(number: 20837)),
        ProfileSummary(name: "bob", answers: 9, lastDay: Day(number: 20834)),
        ProfileSummary(name: "zoë", answers: 0, lastDay: nil),
      ])
    let box4 = FactState(box: 4, dueAt: 1_800_921_600_000)
    let box3 = FactState(box: 3, dueAt: 1_800_576_000_000)
    let box2 = FactState(box: 2, dueAt: 1_800_403_200_000)
    #expect(
      try store.read(Answers.FactStates(profile: "ada", mode: "drill")) == [
        "7×2": box4, "7×3": box4, "7×4": box3, "7×5": box3, "7×6": box4, "7×7": box4, "7×8": box4,
        "8×7": box2, "8×4": FactState(box: 1, dueAt: 1_800_344_729_866), "8×5": box2, "8×2": box2,
      ])
    #expect(
      try store.read(Answers.FactStates(profile: "bob", mode: "drill"))["2+5"]
        == FactState(box: 1, dueAt: 1_800_037_813_634))
    #expect(try store.read(Answers.FactStates(profile: "bob", mode: "drill")).count == 6)
    #expect(
      try store.read(Answers.Totals(profile: "ada", mode: "drill")) == [
        "7×2": ItemTotals(answered: 3, right: 3, milliseconds: 8015),
        "7×3": ItemTotals(answered: 3, right: 3, milliseconds: 10056),
        "7×4": ItemTotals(answered: 4, right: 2, milliseconds: 12173),
        "7×5": ItemTotals(answered: 2, right: 2, milliseconds: 6008, shown: 1),
        "7×6": ItemTotals(answered: 3, right: 3, milliseconds: 8009),
        "7×7": ItemTotals(answered: 4, right: 4, milliseconds: 10518),
        "7×8": ItemTotals(answered: 3, right: 3, milliseconds: 7585),
        "8×2": ItemTotals(answered: 1, right: 1, milliseconds: 2504),
        "8×4": ItemTotals(answered: 0, right: 0, milliseconds: 0, shown: 1),
        "8×5": ItemTotals(answered: 1, right: 1, milliseconds: 3503),
        "8×7": ItemTotals(answered: 1, right: 1, milliseconds: 2504),
      ])
    #expect(
      try store.read(Answers.Activity(profile: "ada", mode: "drill", from: Day(number: 20834))) == [
        DayActivity(day: Day(number: 20834), answered: 7, right: 7),
        DayActivity(day: Day(number: 20837), answered: 11, right: 11),
      ])
    #expect(
      try store.read(Answers.PracticeDays(profile: "ada", mode: "drill"))
        == [20837, 20834, 20833].map(Day.init(number:)))
    #expect(try store.read(Answers.PracticeDays(profile: "bob", mode: "daily")) == [Day(number: 20834)])
    #expect(
      Set(try store.read(Answers.Groups(profile: "ada", mode: "quiz"))) == [
        AnswerGroup(difficulty: "easy", category: "Arts & Literature", answered: 1, right: 0),
        AnswerGroup(difficulty: "hard", category: "Geography", answered: 1, right: 1),
        AnswerGroup(difficulty: "hard", category: "History", answered: 1, right: 0),
        AnswerGroup(difficulty: "medium", category: "History", answered: 1, right: 0),
      ])
    #expect(
      Set(try store.read(Answers.Groups(profile: "ada", mode: "daily"))) == [
        AnswerGroup(difficulty: "easy", category: "Mathematics", answered: 1, right: 1),
        AnswerGroup(difficulty: "easy", category: "Words & Language", answered: 1, right: 1),
      ])
    #expect(
      try store.read(DailyChallenges.Days(profile: "ada", from: Day(number: 20833), through: Day(number: 20834))) == [
        DailyRecord(
          profile: "ada", day: Day(number: 20833), difficulty: "easy", item: "4929542483fc5c88",
          elapsedMilliseconds: 10007, finished: true, correct: true, given: "56", updatedAt: 1_800_003_660_152),
        DailyRecord(
          profile: "ada", day: Day(number: 20833), difficulty: "medium", item: "27306b37652105ce",
          elapsedMilliseconds: 15006, updatedAt: 1_800_003_676_672),
        DailyRecord(
          profile: "ada", day: Day(number: 20834), difficulty: "easy", item: "eddc5323233ca428",
          elapsedMilliseconds: 8007, finished: true, correct: true, given: "French", updatedAt: 1_800_093_631_182),
        DailyRecord(
          profile: "ada", day: Day(number: 20834), difficulty: "hard", item: "b3fc8b9f09ad71aa",
          elapsedMilliseconds: 5005, updatedAt: 1_800_093_642_703),
      ])
    #expect(
      try store.read(DailyChallenges.Days(profile: "bob", from: Day(number: 20834), through: Day(number: 20834))) == [
        DailyRecord(
          profile: "bob", day: Day(number: 20834), difficulty: "medium", item: "b04d4b448288a595",
          elapsedMilliseconds: 20007, finished: true, correct: false, given: "Pythagoras' constant",
          updatedAt: 1_800_097_221_572)
      ])
    #expect(
      try store.personalityResults(profile: "ada") == [
        PersonalityRecord(
          profile: "ada", quiz: "animal", title: "Which animal are you?", outcome: "Owl", symbol: "🦉",
          runnerUp: "Fox", takenAt: 1_800_003_694_220, day: Day(number: 20833)),
        PersonalityRecord(
          profile: "ada", quiz: "calculator", title: "What kind of calculator are you?", outcome: "Pocket Calculator",
          symbol: "🔢", runnerUp: "Supercomputer", takenAt: 1_800_093_660_712, day: Day(number: 20834)),
      ])
    #expect(
      try store.anagramRounds(profile: "ada") == [
        AnagramRecord(
          profile: "ada", startedAt: 1_800_003_695_793, day: Day(number: 20833), level: "easy", score: 0, solved: 0,
          played: 2, finished: false),
        AnagramRecord(
          profile: "ada", startedAt: 1_800_093_662_319, day: Day(number: 20834), level: "easy", score: 120,
          solved: 3, played: 10, finished: true),
      ])
  }

  /// After the upgrade the store goes on: a box moves from the box saved by the old
  /// release, a showing adds to its count, a new answer takes the next id, and all of it
  /// is there when the file is opened again.
  @Test func theUpgradedFileGoesOnSaving() throws {
    let (folder, path) = try Self.copy()
    defer { _ = folder }
    do {
      let store = SQLiteStore.open(path: path)
      let due: Int64 = 1_800_921_600_000
      let answer = AnswerRecord(
        profile: "ada", mode: "drill", item: "7×2", given: "14", correct: true, milliseconds: 1200, answeredAt: due,
        day: Day(milliseconds: due, utcOffsetSeconds: 0))
      #expect(try store.record(answer, learning: Leitner()) == FactState(box: 5, dueAt: due + 14 * 86_400_000))
      try store.setBack(item: "8×4", profile: "ada", mode: "drill", at: due)
      try store.saveSetting("digits", value: "20", profile: "zoë", at: due)
    }
    let store = SQLiteStore.open(path: path)
    #expect(store.warnings.isEmpty)
    #expect(try store.read(Answers.Totals(profile: "ada", mode: "drill"))["8×4"]?.shown == 2)
    #expect(try store.read(Answers.FactStates(profile: "ada", mode: "drill"))["7×2"]?.box == 5)
    #expect(try store.settings(profile: "zoë") == ["digits": "20"])
    #expect(
      try Self.rows("answer", in: path).split(separator: "\n").last
        == "41|ada|drill|7×2|14|1|1200|1800921600000|20844||")
    #expect(try store.profiles().map(\.answers) == [32, 9, 0])
  }

  /// The settings read at start-up (without opening the store) reads the old file too.
  @Test func theStartUpReadReadsIt() throws {
    let (folder, path) = try Self.copy()
    defer { _ = folder }
    let lazy = SQLiteStore(path: path)
    #expect(
      try lazy.settings(profile: "ada") == ["digits": "14", "tips": "12 15 20", "drill": "7,8 max 10 random count 5 ×"])
    #expect(!lazy.isOpen)
  }
}
