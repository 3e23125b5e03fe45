import ReckonStore
import Testing

@testable import ReckonSession

/// Durations come from the clock's monotonic reading, dates from the wall clock: setting the
/// wall clock back (NTP, a user) does not take the time already on a daily challenge's clock
/// down to 0:00, nor make an answer take no time (or less than none), so a best time cannot
/// be had by turning the clock back.
@Suite struct WallClockTests {
  static let hour: Int64 = 3_600_000

  @Test func aDailyChallengeKeepsItsTimeWhenTheWallClockGoesBack() throws {
    let clock = ManualClock()
    let store = SQLiteStore.inMemory()
    var session = testSession(clock: clock, store: store)
    session.state.builtInQuestions = BuiltInQuestions.bank
    _ = session.handle("daily easy")
    #expect(session.prompt == "daily easy 0:00> ")
    clock.advance(milliseconds: 65_000)
    clock.setWallClock(by: -Self.hour)
    #expect(session.prompt == "daily easy 1:05> ")
    clock.advance(milliseconds: 2_000)
    #expect(session.tick().outputs.isEmpty)
    let saved = try store.read(DailyChallenges.Days(profile: "ada", from: clock.today(), through: clock.today()))
    #expect(saved.map(\.elapsedMilliseconds) == [67_000])

    guard let daily = session.mode as? DailyMode else {
      Issue.record("the challenge did not start: \(type(of: session.mode))")
      return
    }
    let right = try #require(daily.choices.answers.firstIndex(of: daily.choices.question.correct))
    let answered = plain(session.handle("abcd".map(String.init)[right]))
    #expect(answered.first?.hasSuffix(", in 1:07.") == true, "\(answered)")
    let finished = try store.read(DailyChallenges.Days(profile: "ada", from: clock.today(), through: clock.today()))
    #expect(finished.map(\.elapsedMilliseconds) == [67_000])
    #expect(finished.map(\.finished) == [true])
  }

  @Test func aDrillAnswerTakesTheTimeItTookWhenTheWallClockGoesBack() throws {
    let clock = ManualClock()
    let store = SQLiteStore.inMemory()
    var session = testSession(clock: clock, store: store)
    #expect(plain(session.handle("drill 7 count 2")).last == "Q 7 × 2 = ?")
    clock.advance(milliseconds: 2_000)
    clock.setWallClock(by: -Self.hour)
    #expect(plain(session.handle("14")).first == "✓ 2.0 s")
    clock.advance(milliseconds: 1_500)
    clock.setWallClock(by: Self.hour * 5)
    #expect(plain(session.handle("21")).first == "✓ 1.5 s")
    let totals = try store.read(Answers.Totals(profile: "ada", mode: "drill"))
    #expect(totals["7×2"]?.milliseconds == 2_000)
    #expect(totals["7×3"]?.milliseconds == 1_500)
  }

  @Test func aQuizAnswerTakesTheTimeItTookWhenTheWallClockGoesBack() throws {
    let clock = ManualClock()
    var session = testSession(clock: clock, store: SQLiteStore.inMemory())
    session.state.builtInQuestions = BuiltInQuestions.bank
    _ = session.handle("quiz count 1")
    clock.advance(milliseconds: 3_000)
    clock.setWallClock(by: -Self.hour)
    let reply = plain(session.handle("skip"))
    #expect(reply.first?.hasSuffix("(3.0 s)") == true, "\(reply)")
  }

  /// The wall clock set forward an hour does not end an anagram's word before its time.
  @Test func anAnagramsCountdownGoesOnWhenTheWallClockJumps() {
    let clock = ManualClock()
    var session = testSession(clock: clock, store: SQLiteStore.inMemory())
    _ = session.handle("anagram")
    #expect(session.prompt == "anagram 1/10 1:00> ")
    clock.advance(milliseconds: 5_000)
    clock.setWallClock(by: Self.hour)
    #expect(session.prompt == "anagram 1/10 0:55> ")
    #expect(session.tick().outputs.isEmpty)
    #expect(session.prompt == "anagram 1/10 0:55> ")
  }
}
