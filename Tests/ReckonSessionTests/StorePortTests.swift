import ReckonCore
import ReckonStore
import Synchronization
import Testing

@testable import ReckonSession

/// The store's port as the modes use it: a game's round kept as a `GameResult` with its own
/// part in JSON, the learning rule handed to the store, and the one channel for notices.
@Suite struct StorePortTests {
  /// Text with everything JSON must escape, and more.
  static let awkward = [
    "", "plain", "quote \" and \\ backslash", "tab\tnew\nline\r", "\u{1}\u{1F}\u{7F}", "🦉 zoë ∑", "}{][",
  ]

  @Test(arguments: awkward)
  func jsonTextReadsBackEqual(_ text: String) throws {
    let value = JSON.object([
      "s": .string(text), "n": .number(120), "neg": .number(-3), "half": .number(0.5), "t": .bool(true), "z": .null,
      "a": .array([(value: .string(text), line: 0)]),
    ])
    let read = try JSON.parse(value.text).get()
    #expect(read == value)
    #expect(read["s"]?.string == text)
    #expect(read["n"]?.integer == 120)
    #expect(read["half"]?.integer == nil)
    #expect(!value.text.utf8.contains { $0 < 0x20 }, "control characters are escaped")
  }

  @Test(arguments: awkward)
  func gameRecordsReadBackAsSaved(_ text: String) {
    let personality = PersonalityRecord(
      profile: "ada", quiz: text, title: text + "?", outcome: "Owl " + text, symbol: "🦉", runnerUp: text,
      takenAt: 1_800_000_000_123, day: Day(number: 20833))
    #expect(PersonalityRecord(personality.gameResult) == personality)
    #expect(AnagramRecord(personality.gameResult) == nil, "another game's round is not read as an anagram round")
    for finished in [false, true] {
      let round = AnagramRecord(
        profile: "ada", startedAt: 5, day: Day(number: 1), level: text, score: 120, solved: 3, played: 10,
        finished: finished)
      #expect(AnagramRecord(round.gameResult) == round)
      #expect(round.gameResult.score == 120 && round.gameResult.finished == finished)
    }
  }

  /// A round whose data this Reckon cannot read (written by a later one, or damaged) is left
  /// out rather than read wrong.
  @Test func unreadableDataIsLeftOut() throws {
    let store = SQLiteStore.inMemory()
    let good = AnagramRecord(
      profile: "ada", startedAt: 1, day: Day(number: 1), level: "easy", score: 10, solved: 1, played: 2, finished: true)
    try store.write(GameResults.Save(good.gameResult))
    for data in ["", "{", "{\"level\":\"easy\"}", "{\"level\":1,\"solved\":1,\"played\":1}", "[]"] {
      var bad = good.gameResult
      bad.startedAt += Int64(data.utf8.count) + 1
      bad.data = data
      try store.write(GameResults.Save(bad))
    }
    #expect(try store.read(GameResults.All(profile: "ada", game: AnagramRecord.game)).count == 6)
    #expect(try store.anagramRounds(profile: "ada") == [good])
  }

  /// Saving a round again replaces it; another round (or another game's) is a row of its own.
  @Test func aRoundSavedAgainReplacesItself() throws {
    let store = SQLiteStore.inMemory()
    var round = AnagramRecord(
      profile: "ada", startedAt: 7, day: Day(number: 1), level: "easy", score: 0, solved: 0, played: 1, finished: false)
    try store.write(GameResults.Save(round.gameResult))
    round.score = 30
    round.played = 10
    round.finished = true
    try store.write(GameResults.Save(round.gameResult))
    var other = round
    other.startedAt = 8
    try store.write(GameResults.Save(other.gameResult))
    var sameTime = round.gameResult
    sameTime.game = "another game"
    try store.write(GameResults.Save(sameTime))
    #expect(try store.anagramRounds(profile: "ada") == [round, other])
    #expect(try store.read(GameResults.All(profile: "ada", game: "another game")).map(\.startedAt) == [7])
    #expect(try store.read(GameResults.All(profile: "bob", game: AnagramRecord.game)).isEmpty)
  }

  /// The store hands the rule the state it has saved, and saves what the rule returns: the
  /// rule is the mode's, any rule.
  @Test func theLearningRuleIsTheModes() throws {
    let store = SQLiteStore.inMemory()
    let seen = Mutex<[FactState?]>([])
    let rule: @Sendable (FactState?) -> FactState = { saved in
      seen.withLock { $0.append(saved) }
      return FactState(box: (saved?.box ?? 0) + 10, dueAt: (saved?.dueAt ?? 0) + 1)
    }
    let answer = AnswerRecord(
      profile: "ada", mode: "cards", item: "a", given: "x", correct: false, milliseconds: 1, answeredAt: 5,
      day: Day(number: 0))
    #expect(try store.write(Answers.Record(answer, learn: rule)) == FactState(box: 10, dueAt: 1))
    #expect(try store.write(Answers.Record(answer, learn: rule)) == FactState(box: 20, dueAt: 2))
    #expect(try store.write(Answers.Record(answer, learn: nil)) == nil)
    #expect(seen.withLock { $0 } == [nil, FactState(box: 10, dueAt: 1)])
    #expect(try store.read(Answers.FactStates(profile: "ada", mode: "cards")) == ["a": FactState(box: 20, dueAt: 2)])
    try store.write(Answers.SetBack(item: "a", profile: "ada", mode: "cards", to: FactState(box: 2, dueAt: 9)))
    #expect(try store.read(Answers.FactStates(profile: "ada", mode: "cards")) == ["a": FactState(box: 2, dueAt: 9)])
    #expect(try store.read(Answers.Totals(profile: "ada", mode: "cards"))["a"]?.shown == 1)
  }

  /// What the store has to say reaches the user once, at the start of the reply to the line
  /// that opened it, and never again.
  @Test func theStoresNoticesComeOnceAtTheStartOfAReply() {
    let store = SQLiteStore.inMemory(warning: "the disk is on fire")
    var session = testSession(store: store)
    let first = session.handle("drill 2 count 2")
    #expect(plain(first).first == "warning: the disk is on fire")
    #expect(plain(first).filter { $0.contains("on fire") }.count == 1)
    #expect(!plain(session.handle("4")).contains { $0.contains("on fire") })
    #expect(store.takeNotices().isEmpty)
  }
}

/// Money ends below 10^15 of a currency's units: larger amounts, exact or approximate, are
/// refused before anything is worked out (`tip 10^999999` took 9.5 s and printed 11 MB, and
/// `tip 100000!*2` took seconds to round an approximation of 456,574 digits to the cent).
@Suite struct MoneyLimitTests {
  @Test(arguments: [
    "tip 100000!*2", "split 100000!*2 3", "tip 10^999999", "tip 10^999999 20%", "split 10^15 2",
    "tip sqrt(2)*10^15 18%", "tip 999999999999999.995", "split -10^20 2",
  ])
  func anAmountFromTenToTheFifteenIsRefused(line: String) {
    var session = testSession()
    session.state.digitLimit = 2_000
    let reply = plain(session.handle(line))
    #expect(
      reply.first?.contains("the amount is too large to be money: amounts go up to 999999999999999.99") == true,
      "\(reply)")
  }

  @Test func amountsJustBelowTheLimitAreWorkedOutToTheCent() {
    var session = testSession()
    // 999,999,999,999,999.99 × 20% = 199,999,999,999,999.998, which rounds up to the cent.
    #expect(
      plain(session.handle("tip 999999999999999.99 20%"))
        == ["tip 200000000000000.00  total 1199999999999999.99"])
    #expect(plain(session.handle("split 999999999999999.99 3")).first?.contains("333333333333333.33") == true)
    // An approximation is rounded to the cent as before.
    #expect(plain(session.handle("split sqrt(2000) 2")).contains { $0.contains("22.36") })
  }
}

/// Review findings: results of the same millisecond, and the last save at the end.
@Suite struct SaveEdgeTests {
  /// Two personality quizzes finished in the same millisecond are two results (a round key
  /// of profile, game and start would have made them one).
  @Test func twoResultsOfTheSameMillisecondAreBothKept() throws {
    let store = SQLiteStore.inMemory()
    var session = testSession(store: store)
    for _ in 0..<2 {
      _ = session.handle("personality animal")
      while let quiz = session.mode as? PersonalityMode {
        _ = session.handle(quiz.question.kind == .multiple ? "none" : "1")
      }
    }
    #expect(try store.personalityResults(profile: "ada").count == 2)
  }
}
