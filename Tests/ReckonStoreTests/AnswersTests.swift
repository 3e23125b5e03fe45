import Foundation
import ReckonSession
import SQLite
import Testing

@testable import ReckonStore

/// Answers, Leitner boxes and the statistics read back from them, on real files.
@Suite struct AnswersTests {
  static let day0: Int64 = 1_800_000_000_000  // 2027-01-15 08:00 UTC
  static let midnight0: Int64 = 1_799_971_200_000  // 2027-01-15 00:00 UTC

  static func answer(
    _ item: String, correct: Bool, at milliseconds: Int64 = day0, profile: String = "ada", mode: String = "drill"
  ) -> AnswerRecord {
    AnswerRecord(
      profile: profile, mode: mode, item: item, given: correct ? "right" : "wrong", correct: correct,
      milliseconds: 1500, answeredAt: milliseconds, day: Day(milliseconds: milliseconds, utcOffsetSeconds: 0))
  }

  @Test func answersAndBoxesLastAcrossReopening() throws {
    let folder = try SQLiteStoreTests.Folder()
    let path = folder.path + "/reckon.sqlite"
    do {
      let store = SQLiteStore.open(path: path)
      try store.record(Self.answer("7×8", correct: true), learning: Leitner())
      try store.record(Self.answer("7×8", correct: false, at: Self.day0 + 1000), learning: Leitner())
      try store.record(Self.answer("6×9", correct: true, at: Self.day0 + 86_400_000), learning: Leitner())
      try store.record(Self.answer("6×9", correct: true, profile: "bob"), learning: nil)
    }
    let store = SQLiteStore.open(path: path)
    let day = Day(milliseconds: Self.day0, utcOffsetSeconds: 0)
    #expect(
      try store.read(Answers.FactStates(profile: "ada", mode: "drill")) == [
        "7×8": FactState(box: 1, dueAt: Self.day0 + 1000),
        "6×9": FactState(box: 2, dueAt: Self.midnight0 + 2 * 86_400_000),
      ])
    #expect(
      try store.read(Answers.Totals(profile: "ada", mode: "drill")) == [
        "7×8": ItemTotals(answered: 2, right: 1, milliseconds: 3000),
        "6×9": ItemTotals(answered: 1, right: 1, milliseconds: 1500),
      ])
    #expect(
      try store.read(Answers.Activity(profile: "ada", mode: "drill", from: day)) == [
        DayActivity(day: day, answered: 2, right: 1), DayActivity(day: day.advanced(by: 1), answered: 1, right: 1),
      ])
    #expect(try store.read(Answers.Activity(profile: "ada", mode: "drill", from: day.advanced(by: 1))).count == 1)
    #expect(try store.read(Answers.PracticeDays(profile: "ada", mode: "drill")) == [day.advanced(by: 1), day])
    #expect(try store.read(Answers.PracticeDays(profile: "ada", mode: "quiz")) == [])
    // bob's answer was saved without learning: no box.
    #expect(try store.read(Answers.FactStates(profile: "bob", mode: "drill")) == [:])
    #expect(
      try store.profiles() == [
        ProfileSummary(name: "ada", answers: 3, lastDay: day.advanced(by: 1)),
        ProfileSummary(name: "bob", answers: 1, lastDay: day),
      ])
  }

  /// The box moves from the box saved, inside the write: a second process's answers count.
  @Test func boxesMoveFromWhatIsSaved() throws {
    let folder = try SQLiteStoreTests.Folder()
    let path = folder.path + "/reckon.sqlite"
    let one = SQLiteStore.open(path: path)
    let two = SQLiteStore.open(path: path)
    let day: Int64 = 86_400_000
    #expect(
      try one.record(Self.answer("3×4", correct: true), learning: Leitner())
        == FactState(box: 2, dueAt: Self.midnight0 + day))
    #expect(
      try two.record(Self.answer("3×4", correct: true, at: Self.day0 + day), learning: Leitner())
        == FactState(box: 3, dueAt: Self.midnight0 + 4 * day))
    #expect(
      try one.record(Self.answer("3×4", correct: true, at: Self.day0 + 4 * day), learning: Leitner())
        == FactState(box: 4, dueAt: Self.midnight0 + 11 * day))
  }

  /// Two processes' worth of writers on one file, at once: every answer is there, once.
  @Test func twoWritersRecordingAtOnceLoseNothing() async throws {
    let folder = try SQLiteStoreTests.Folder()
    let path = folder.path + "/reckon.sqlite"
    _ = SQLiteStore.open(path: path)
    let stores = [SQLiteStore.open(path: path), SQLiteStore.open(path: path)]
    await withTaskGroup(of: Void.self) { group in
      for (index, store) in stores.enumerated() {
        group.addTask {
          for n in 0..<150 {
            let item = "\(index + 2)×\(n % 11 + 2)"
            _ = try? store.record(Self.answer(item, correct: n % 3 != 0, at: Self.day0 + Int64(n)), learning: Leitner())
          }
        }
      }
    }
    let store = SQLiteStore.open(path: path)
    let totals = try store.read(Answers.Totals(profile: "ada", mode: "drill"))
    // Each writer asked 11 facts in turn 150 times: the first 7 came up 14 times, the other 4
    // 13 times. Any answer lost or written twice would change a count.
    #expect(totals.count == 22)
    #expect(totals.values.map(\.answered).sorted() == Array(repeating: 13, count: 8) + Array(repeating: 14, count: 14))
  }

  /// How an older database kept count of its migrations: in `user_version`, or (the
  /// releases that used GRDB) as names in `grdb_migrations` with `user_version` 0.
  enum Bookkeeping: CaseIterable {
    case userVersion, grdb
  }

  /// A database with the first `version` migrations, counted as `bookkeeping` says.
  static func database(at path: String, version: Int32, bookkeeping: Bookkeeping) throws -> Database {
    // 0600, as the store makes its file (one open to others would be tightened, with a warning).
    try SQLiteStoreTests.writePrivate(Data(), to: path)
    let db = try Database(path)
    try Schema.migrator.migrate(db, upTo: version)
    if bookkeeping == .grdb {
      try db.setUserVersion(0)
      try db.execute("CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
      for migration in Schema.migrator.migrations.prefix(Int(version)) {
        try db.run("INSERT INTO grdb_migrations (identifier) VALUES (?)", migration.name)
      }
    }
    return db
  }

  /// A database written by the first version of the schema gains each answer's day.
  @Test(arguments: Bookkeeping.allCases) func aVersionOneDatabaseIsMigrated(_ bookkeeping: Bookkeeping) throws {
    let folder = try SQLiteStoreTests.Folder()
    let path = folder.path + "/reckon.sqlite"
    do {
      let db = try Self.database(at: path, version: 1, bookkeeping: bookkeeping)
      #expect(try Schema.migrator.version(of: db) == 1)
      try db.execute("INSERT INTO profile (name, createdAt) VALUES ('ada', 0)")
      try db.run(
        """
        INSERT INTO answer (profile, mode, item, given, correct, milliseconds, answeredAt)
        VALUES ('ada', 'drill', '7×8', '56', 1, 900, ?)
        """, Self.day0)
    }
    let store = SQLiteStore.open(path: path)
    #expect(store.warnings.isEmpty)
    var seconds = time_t(Self.day0 / 1000)
    var parts = tm()
    localtime_r(&seconds, &parts)
    let local = Day(milliseconds: Self.day0, utcOffsetSeconds: parts.tm_gmtoff)
    #expect(try store.read(Answers.PracticeDays(profile: "ada", mode: "drill")) == [local])
    #expect(try store.withDatabase { (db) throws(SQLiteError) in try db.userVersion() } == 6)
    #expect(Schema.migrator.latest == 6)
    // An answer from before v3 has no category or difficulty, and no trivia statistics.
    #expect(try store.read(Answers.Groups(profile: "ada", mode: "drill")).isEmpty)
    #expect(try store.personalityResults(profile: "ada").isEmpty)
    #expect(try store.anagramRounds(profile: "ada").isEmpty)
  }

  /// A database written by the release before showings were counted (schema v4) opens with
  /// every answer, box, setting and result as it was. A fact with a box and no answer can only
  /// have had its answer shown, so it counts one showing; the others none. Then each showing
  /// counts, and an answer leaves the count alone.
  @Test(arguments: Bookkeeping.allCases) func aVersionFourDatabaseIsMigrated(_ bookkeeping: Bookkeeping) throws {
    let folder = try SQLiteStoreTests.Folder()
    let path = folder.path + "/reckon.sqlite"
    let day = Day(milliseconds: Self.day0, utcOffsetSeconds: 0)
    do {
      let db = try Self.database(at: path, version: 4, bookkeeping: bookkeeping)
      #expect(try Schema.migrator.version(of: db) == 4)
      // As the release of schema v4 wrote them: settings, answers with their boxes, a shown
      // answer (a box with no answer), a daily challenge, a personality result, an anagram round.
      try db.execute("INSERT INTO profile (name, createdAt) VALUES ('ada', 0), ('bob', 0)")
      try db.execute(
        """
        INSERT INTO setting (profile, key, value) VALUES ('ada', 'drill', '2-9 max 12 order endless ×'),
          ('ada', 'digits', '4'), ('bob', 'tips', '12 15')
        """)
      for (item, correct, at) in [("7×8", true, Self.day0), ("7×8", false, Self.day0 + 1), ("6×9", true, Self.day0)] {
        try db.run(
          """
          INSERT INTO answer (profile, mode, item, given, correct, milliseconds, answeredAt, day)
          VALUES ('ada', 'drill', ?, '1', ?, 1500, ?, ?)
          """, item, correct, at, day.number)
      }
      try db.run(
        """
        INSERT INTO factState (profile, mode, item, box, dueAt) VALUES ('ada', 'drill', '7×8', 1, ?),
          ('ada', 'drill', '6×9', 2, ?), ('ada', 'drill', '4×4', 1, ?), ('bob', 'drill', '7×8', 1, ?)
        """, Self.day0 + 1, Self.midnight0 + 86_400_000, Self.day0, Self.day0)
      try db.run(
        """
        INSERT INTO daily (profile, day, difficulty, item, elapsed, finished, correct, given, updatedAt)
        VALUES ('ada', ?, 'easy', 'k1', 20000, 1, 1, 'Mercury', ?)
        """, day.number, Self.day0)
      try db.run(
        """
        INSERT INTO personality (profile, quiz, title, outcome, symbol, runnerUp, takenAt, day)
        VALUES ('ada', 'animal', 'Which animal are you?', 'Owl', '🦉', 'Fox', ?, ?)
        """, Self.day0, day.number)
      try db.run(
        """
        INSERT INTO anagramRound (profile, startedAt, day, level, score, solved, played, finished)
        VALUES ('ada', ?, ?, 'easy', 50, 1, 2, 0)
        """, Self.day0, day.number)
    }
    let store = SQLiteStore.open(path: path)
    #expect(store.warnings.isEmpty)
    #expect(try store.withDatabase { (db) throws(SQLiteError) in try db.userVersion() } == Schema.migrator.latest)
    #expect(
      try store.settings(profile: "ada") == ["drill": "2-9 max 12 order endless ×", "digits": "4"])
    #expect(try store.settings(profile: "bob") == ["tips": "12 15"])
    #expect(
      try store.read(Answers.FactStates(profile: "ada", mode: "drill")) == [
        "7×8": FactState(box: 1, dueAt: Self.day0 + 1), "6×9": FactState(box: 2, dueAt: Self.midnight0 + 86_400_000),
        "4×4": FactState(box: 1, dueAt: Self.day0),
      ])
    #expect(
      try store.read(Answers.Totals(profile: "ada", mode: "drill")) == [
        "7×8": ItemTotals(answered: 2, right: 1, milliseconds: 3000),
        "6×9": ItemTotals(answered: 1, right: 1, milliseconds: 1500),
        "4×4": ItemTotals(answered: 0, right: 0, milliseconds: 0, shown: 1),
      ])
    #expect(
      try store.read(Answers.Totals(profile: "bob", mode: "drill")) == [
        "7×8": ItemTotals(answered: 0, right: 0, milliseconds: 0, shown: 1)
      ])
    #expect(try store.read(Answers.PracticeDays(profile: "ada", mode: "drill")) == [day])
    let daily = try store.read(DailyChallenges.Days(profile: "ada", from: day, through: day))
    #expect(daily.map(\.given) == ["Mercury"])
    #expect(daily.map(\.finished) == [true])
    #expect(try store.personalityResults(profile: "ada").map(\.outcome) == ["Owl"])
    #expect(try store.anagramRounds(profile: "ada").map(\.score) == [50])
    #expect(try store.profiles().map(\.answers) == [3, 0])

    // From now on each showing counts; an answer moves the box and leaves the count alone.
    try store.setBack(item: "6×9", profile: "ada", mode: "drill", at: Self.day0 + 2)
    try store.setBack(item: "6×9", profile: "ada", mode: "drill", at: Self.day0 + 3)
    try store.setBack(item: "4×4", profile: "ada", mode: "drill", at: Self.day0 + 3)
    try store.record(Self.answer("6×9", correct: true, at: Self.day0 + 4), learning: Leitner())
    #expect(
      try store.read(Answers.Totals(profile: "ada", mode: "drill"))["6×9"]
        == ItemTotals(answered: 2, right: 2, milliseconds: 3000, shown: 2))
    #expect(try store.read(Answers.Totals(profile: "ada", mode: "drill"))["4×4"]?.shown == 2)
    #expect(try store.read(Answers.FactStates(profile: "ada", mode: "drill"))["6×9"]?.box == 2)
    #expect(try store.read(Answers.Totals(profile: "bob", mode: "drill"))["7×8"]?.shown == 1)

    // The drill setting saved by that release still reads, as the defaults it was.
    var session = Session(clock: ManualClock(), random: SeededRandom(seed: 1), store: store, profile: "ada")
    let opening = session.handle("drill").outputs.first
    #expect(opening == .note("Drill for ada: tables 2–9 (×) up to 12, in order, until you quit."))
  }

  /// A showing of a fact never seen before makes its box and counts once.
  @Test func aShowingIsCounted() throws {
    let store = SQLiteStore.inMemory()
    try store.setBack(item: "3×4", profile: "ada", mode: "drill", at: Self.day0)
    #expect(
      try store.read(Answers.FactStates(profile: "ada", mode: "drill")) == ["3×4": FactState(box: 1, dueAt: Self.day0)])
    #expect(
      try store.read(Answers.Totals(profile: "ada", mode: "drill")) == [
        "3×4": ItemTotals(answered: 0, right: 0, milliseconds: 0, shown: 1)
      ])
    #expect(try store.read(Answers.Totals(profile: "ada", mode: "quiz")).isEmpty)
  }

  /// Personality results are kept in order; an anagram round saved again (after each word)
  /// is one round, and each profile has its own.
  @Test func personalityResultsAndAnagramRoundsLast() throws {
    let folder = try SQLiteStoreTests.Folder()
    let path = folder.path + "/reckon.sqlite"
    let day = Day(milliseconds: Self.day0, utcOffsetSeconds: 0)
    let owl = PersonalityRecord(
      profile: "ada", quiz: "animal", title: "Which animal are you?", outcome: "Owl", symbol: "🦉", runnerUp: "Fox",
      takenAt: Self.day0, day: day)
    var fox = owl
    fox.outcome = "Fox"
    fox.symbol = "🦊"
    fox.runnerUp = ""
    fox.takenAt += 60_000
    var round = AnagramRecord(
      profile: "ada", startedAt: Self.day0, day: day, level: "easy", score: 50, solved: 1, played: 1, finished: false)
    do {
      let store = SQLiteStore.open(path: path)
      try store.savePersonality(fox)
      try store.savePersonality(owl)
      try store.saveAnagramRound(round)
      round.score = 30
      round.played = 2
      try store.saveAnagramRound(round)
      round.finished = true
      try store.saveAnagramRound(round)
      var other = round
      other.profile = "bob"
      try store.saveAnagramRound(other)
    }
    let store = SQLiteStore.open(path: path)
    #expect(try store.personalityResults(profile: "ada") == [owl, fox])
    #expect(try store.personalityResults(profile: "bob") == [])
    #expect(try store.anagramRounds(profile: "ada") == [round])
    #expect(try store.anagramRounds(profile: "bob").map(\.profile) == ["bob"])
    #expect(try store.profiles().map(\.name) == ["ada", "bob"])
  }

  /// Trivia answers keep their category and difficulty; a daily challenge keeps its time
  /// until it is finished, and once finished stays as it was.
  @Test func dailyChallengesAndTriviaAnswersLast() throws {
    let folder = try SQLiteStoreTests.Folder()
    let path = folder.path + "/reckon.sqlite"
    let day = Day(milliseconds: Self.day0, utcOffsetSeconds: 0)
    func quiz(_ category: String, _ difficulty: String, correct: Bool) -> AnswerRecord {
      var a = Self.answer("q-\(category)-\(difficulty)", correct: correct, mode: "quiz")
      a.category = category
      a.difficulty = difficulty
      return a
    }
    do {
      let store = SQLiteStore.open(path: path)
      try store.record(quiz("Space", "easy", correct: true), learning: nil)
      try store.record(quiz("Space", "easy", correct: false), learning: nil)
      try store.record(quiz("Food", "hard", correct: true), learning: nil)
      var daily = DailyRecord(
        profile: "ada", day: day, difficulty: "easy", item: "k1", elapsedMilliseconds: 12_000, updatedAt: Self.day0)
      try store.write(DailyChallenges.Save(daily, answer: nil))
      daily.elapsedMilliseconds = 20_000
      daily.finished = true
      daily.correct = true
      daily.given = "Mercury"
      var answer = quiz("Space", "easy", correct: true)
      answer.mode = "daily"
      try store.write(DailyChallenges.Save(daily, answer: answer))
      // A later save of the same challenge (another Reckon's checkpoint) changes nothing.
      var late = daily
      late.finished = false
      late.elapsedMilliseconds = 99_000
      #expect(try store.write(DailyChallenges.Save(late, answer: answer)) == daily)
    }
    let store = SQLiteStore.open(path: path)
    let groups = try store.read(Answers.Groups(profile: "ada", mode: "quiz")).sorted { $0.category < $1.category }
    #expect(
      groups == [
        AnswerGroup(difficulty: "hard", category: "Food", answered: 1, right: 1),
        AnswerGroup(difficulty: "easy", category: "Space", answered: 2, right: 1),
      ])
    #expect(try store.read(Answers.Groups(profile: "ada", mode: "daily")).map(\.answered) == [1])
    let saved = try store.read(DailyChallenges.Days(profile: "ada", from: day, through: day))
    #expect(saved.count == 1)
    #expect(saved.first?.elapsedMilliseconds == 20_000)
    #expect(saved.first?.finished == true)
    #expect(saved.first?.given == "Mercury")
    #expect(
      try store.read(DailyChallenges.Days(profile: "ada", from: day.advanced(by: 1), through: day.advanced(by: 9)))
        .isEmpty)
  }
}
