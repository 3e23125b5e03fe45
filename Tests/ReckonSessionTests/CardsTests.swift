import Foundation
import ReckonCore
import ReckonStore
import Testing

@testable import ReckonSession

/// Flashcard decks: loaded from a file into the store, reviewed with FSRS, every grade saved
/// as it is given and taken back by undo, and a deck loaded again keeps its history.
@Suite struct CardsTests {
  static let deckFile = """
    #separator:tab
    #html:true
    #guid column:1
    g1\tCapital of <b>Austria</b>?\tVienna
    g2\tCapital of France?\tParis
    g3\t{{c1::Canberra}} is in {{c2::Australia}}\t
    """

  static func session(_ store: SQLiteStore, _ clock: ManualClock = ManualClock()) -> Session {
    var session = testSession(clock: clock, store: store)
    session.state.files = MemoryFiles(["caps.txt": Array(deckFile.utf8)])
    return session
  }

  static func text(_ reply: Reply) -> [String] {
    reply.outputs.compactMap { output in
      switch output {
      case .note(let t), .question(let t), .warning(let t), .feedback(_, let t): t
      case .table(let rows): rows.map { $0.joined(separator: " ") }.joined(separator: "\n")
      default: nil
      }
    }
  }

  /// The errors of a reply, by their messages.
  static func errors(_ reply: Reply) -> [String] {
    reply.outputs.compactMap { output in
      guard case .error(let diagnostic, _) = output else { return nil }
      return diagnostic.message
    }
  }

  @Test func aDeckIsLoadedReviewedAndKept() throws {
    let store = SQLiteStore.inMemory()
    let clock = ManualClock()
    var session = Self.session(store, clock)
    let loaded = Self.text(session.handle("cards load caps.txt"))
    #expect(loaded.last?.hasPrefix("Loaded caps (Anki's plain text): 3 notes; cards 6 added") == true, "\(loaded)")
    #expect(Self.text(session.handle("cards")).first == "deck cards new learning due\ncaps 4 4 0 0")
    // The new cards in the file's order; a right answer typed at once is easy.
    let first = Self.text(session.handle("cards caps"))
    #expect(first.last == "Capital of Austria?")
    clock.advance(milliseconds: 2000)
    let right = Self.text(session.handle("VIENNA"))
    #expect(right.first == "✓ Vienna  (2 s)")
    #expect(right.last == "Capital of France?")
    // Enter shows the answer; 1 is "again", and the card comes back in this sitting.
    _ = session.handle("")
    let again = Self.text(session.handle("1"))
    #expect(again.first == "again in 1 min")
    // undo puts the card back as it was, in the store too.
    #expect(Self.text(session.handle("undo")).last == "Capital of France?")
    let france = try #require(
      try store.read(Decks.Cards(profile: "ada", deck: "caps", reverse: false)).first { $0.key.note == "g2" })
    #expect(france.schedule.reviews == 0 && france.schedule.stability == nil)
    // A wrong answer is "again"; the cloze cards follow.
    #expect(Self.text(session.handle("London")).first == "✗ Paris")
    _ = session.handle("quit")
    let cards = try store.read(Decks.Cards(profile: "ada", deck: "caps", reverse: false))
    let austria = try #require(cards.first { $0.key.note == "g1" })
    #expect(austria.schedule.phase == FSRS.Phase.review.rawValue)  // easy: graduated
    #expect(austria.schedule.reviews == 1)
    #expect(austria.schedule.stability == FSRS().initialStability(.easy))
    // Loaded again with a changed answer: the text changes, the history stays.
    session.state.files = MemoryFiles(["caps.txt": Array(Self.deckFile.replacing("Vienna", with: "Wien").utf8)])
    let again2 = Self.text(session.handle("cards load caps.txt"))
    #expect(again2.last?.hasPrefix("Loaded caps (Anki's plain text): 3 notes; cards 0 added, 2 updated") == true)
    let reloaded = try #require(
      try store.read(Decks.Cards(profile: "ada", deck: "caps", reverse: false)).first { $0.key.note == "g1" })
    #expect(reloaded.answer == "Wien" && reloaded.schedule == austria.schedule)
  }

  /// A card in review is due on its day from the start of it, as Anki counts; browse shows
  /// each card's state, when it is due and how well it is known.
  @Test func aReviewCardIsDueOnItsDayAndBrowseShowsItAll() throws {
    let store = SQLiteStore.inMemory()
    let clock = ManualClock()
    var session = Self.session(store, clock)
    _ = session.handle("cards load caps.txt")
    _ = session.handle("cards caps")
    _ = session.handle("vienna")  // at once: easy, into review
    _ = session.handle("quit")
    let austria = try #require(
      try store.read(Decks.Cards(profile: "ada", deck: "caps", reverse: false)).first { $0.key.note == "g1" })
    let dueDay = clock.day(atMilliseconds: austria.schedule.due)
    // The first minute of the day it is due on (UTC here), before its hour: due.
    clock.advance(milliseconds: Int64(dueDay.number) * FSRS.day - clock.nowMilliseconds() + 60_000)
    #expect(austria.schedule.due > clock.nowMilliseconds())
    #expect(Self.text(session.handle("cards")).first?.hasSuffix("caps 4 3 0 1") == true)
    let browse = try #require(Self.text(session.handle("cards caps browse")).first).split(separator: "\n")
    #expect(browse[0] == "question answer state due reviews lapses recall")
    #expect(browse[1].hasPrefix("Capital of Austria? Vienna review now 1 0 "))
    #expect(browse[2] == "Capital of France? Paris new – 0 0 –")
    // The day before, it was not.
    clock.setWallClock(by: -FSRS.day)
    #expect(Self.text(session.handle("cards")).first?.hasSuffix("caps 4 3 0 0") == true)
  }

  /// A near miss (two letters off, on an answer of five or more) counts as hard, and says so.
  @Test func aNearMissIsHard() throws {
    var session = Self.session(SQLiteStore.inMemory())
    _ = session.handle("cards load caps.txt")
    _ = session.handle("cards caps")
    #expect(Self.text(session.handle("Viena")).first == "≈ almost: Vienna (you typed Viena); counted as hard")
  }

  /// A typed answer of 60,000 characters against a back as long is graded at once (the whole
  /// edit-distance table took 39 s): wrong, or a near miss of two edits as hard. Ctrl-C while
  /// an answer is compared leaves the card ungraded.
  @Test func aLongTypedAnswerIsGradedAndCtrlCStopsIt() throws {
    let back = String(repeating: "abcdefghij", count: 6_000)
    var nearMiss = Array(back)
    nearMiss.swapAt(100, 101)
    nearMiss.remove(at: 40_000)
    let store = SQLiteStore.inMemory()
    var session = testSession(store: store)
    session.state.files = MemoryFiles([
      "long.txt": Array("#separator:tab\n#guid column:1\nl1\tlong one\t\(back)\nl2\tlong two\t\(back)\n".utf8)
    ])
    _ = session.handle("cards load long.txt")
    #expect(Self.text(session.handle("cards long")).last == "long one")
    session.state.interruption = Interruption { true }
    #expect(
      Self.text(session.handle(String(nearMiss))) == [
        "Stopped (Ctrl-C): not graded. Type the answer again, or Enter to see it."
      ])
    #expect(try store.read(Decks.ReviewLog(profile: "ada", deck: "long")).isEmpty)
    session.state.interruption = .never
    let almost = Self.text(session.handle(String(nearMiss)))
    #expect(almost.first?.hasPrefix("≈ almost: ") == true && almost.first?.hasSuffix("; counted as hard") == true)
    // What was typed is shown by its ends, not echoed whole.
    #expect(almost.first?.hasSuffix("(you typed abcdefghijabcdefghij…abcdefghijabcdefghij); counted as hard") == true)
    #expect(almost.last == "long two")
    #expect(Self.text(session.handle(String(repeating: "z", count: 60_000))).first?.hasPrefix("✗ abcdefghij") == true)
    #expect(try store.read(Decks.ReviewLog(profile: "ada", deck: "long")).map(\.rating) == [2, 1])
  }

  @Test func mistakesAreSaid() throws {
    var session = Self.session(SQLiteStore.inMemory())
    // A load that loads nothing is an error under the file's name, as rates load's and quiz
    // load's are: a script that does it exits 1.
    let missing = session.handle("cards load missing.txt")
    guard case .error(let error, _)? = missing.outputs.first else {
      Issue.record("a failed load is not an error: \(missing.outputs)")
      return
    }
    #expect(error.message == "nothing loaded from missing.txt: cannot read it: no such file")
    #expect(error.span == SourceSpan(11, 22))
    session.state.files = MemoryFiles(["latin1.txt": [0x23, 0x73, 0x65, 0x70, 0x0A, 0x61, 0x09, 0xE9, 0x0A]])
    let latin1 = session.handle("cards load latin1.txt")
    #expect(latin1.failed)
    #expect(
      latin1.outputs.contains {
        if case .error(let e, _) = $0 {
          e.message == "nothing loaded from latin1.txt: line 2 is not UTF-8 (byte 3)"
        } else {
          false
        }
      })
    session.state.files = MemoryFiles(["caps.txt": Array(Self.deckFile.utf8)])
    _ = session.handle("cards load caps.txt")
    #expect(Self.text(session.handle("cards cap")).first == "no deck called cap: did you mean caps?")
    #expect(session.isInCalculator)
  }

  /// A deck saved with CRLF line ends (Windows) reads as the same deck.
  @Test func aCRLFDeckLoads() throws {
    let store = SQLiteStore.inMemory()
    var session = testSession(store: store)
    session.state.files = MemoryFiles([
      "crlf.txt": Array(Self.deckFile.split(separator: "\n").joined(separator: "\r\n").utf8) + [13, 10]
    ])
    let loaded = Self.text(session.handle("cards load crlf.txt"))
    #expect(loaded.last?.hasPrefix("Loaded crlf (Anki's plain text): 3 notes; cards 6 added") == true, "\(loaded)")
    let cards = try store.read(Decks.Cards(profile: "ada", deck: "crlf", reverse: false))
    #expect(cards.map(\.answer) == ["Vienna", "Paris", "Canberra", "Australia"])
  }

  /// A schedule line of a file that FSRS or the calendar could not work with (a due time of
  /// Int64.min killed Reckon in every later session) is refused with its line and why, and its
  /// card starts new; the good ones are kept.
  @Test(arguments: [
    (
      "1 0 2 - 1 5 1796676306908 -9223372036854775808 1 0",
      "last review -9223372036854775808 is not a time from the year 1 to 9999"
    ),
    (
      "1 0 2 - 1 5 9223372036854775807 1796676306908 1 0",
      "due time 9223372036854775807 is not a time from the year 1 to 9999"
    ),
    ("1 0 2 - - - 1796676306908 - 0 0", "in review but with no stability and difficulty"),
    ("1 0 1 -1 - - 1796676306908 - 0 0", "step -1 is not one of the learning steps (0 to 1)"),
    ("1 0 3 4 1 5 1796676306908 1796676306908 2 1", "step 4 is not one of the relearning steps (0)"),
    ("1 0 2 - nan 5 1796676306908 1796676306908 1 0", "stability nan is not a number of days from 0.001 to 10,000,000"),
    (
      "1 0 2 - 1e308 5 1796676306908 1796676306908 1 0",
      "stability 1e+308 is not a number of days from 0.001 to 10,000,000"
    ),
    ("1 0 2 - -1 5 1796676306908 1796676306908 1 0", "stability -1.0 is not a number of days from 0.001 to 10,000,000"),
    ("1 0 2 - 1 inf 1796676306908 1796676306908 1 0", "difficulty inf is not a number from 1 to 10"),
    (
      "1 0 2 - 1 5 1796676306908 1796676306908 9223372036854775807 0",
      "reviews 9223372036854775807 is not a count from 0 to 1,000,000"
    ),
    ("1 0 2 - 1 5 1796676306908 1796676306908 1 2", "lapses 2 is not a count from 0 to its reviews"),
    ("1 0 9 - 1 5 1796676306908 1796676306908 1 0", "phase 9 is not 1 (learning), 2 (review) or 3 (relearning)"),
    ("1 0 2 - 1 5 99999999999999999999 1796676306908 1 0", "the due time '99999999999999999999' is not a whole number"),
    (
      "1 0 2 - 1 5",
      "a schedule line has 10 values (card, direction, phase, step, stability, difficulty, due time, last review, reviews, lapses), not 6"
    ),
  ])
  func aBadScheduleLineIsRefusedWithItsLine(_ values: String, _ reason: String) throws {
    let store = SQLiteStore.inMemory()
    var session = testSession(store: store)
    let file = """
      #separator:tab
      #guid column:1
      g1\tCapital of France?\tParis
      #reckon card: \(values)
      #reckon card: 1 1 2 - 3.5 5.25 1796676306908 1700000000000 1 0
      """
    session.state.files = MemoryFiles(["bad.txt": Array(file.utf8)])
    let loaded = Self.text(session.handle("cards load bad.txt"))
    #expect(loaded.prefix(2) == ["Schedules not used (its card starts as new):", "  line 4: \(reason)"], "\(loaded)")
    #expect(loaded.last?.hasPrefix("Loaded bad (Anki's plain text): 1 note; cards 2 added") == true)
    let forward = try #require(try store.read(Decks.Cards(profile: "ada", deck: "bad", reverse: false)).first)
    #expect(forward.schedule.reviews == 0 && forward.schedule.stability == nil)
    let backward = try #require(try store.read(Decks.Cards(profile: "ada", deck: "bad", reverse: true)).first)
    #expect(backward.schedule.stability == 3.5 && backward.schedule.due == 1_796_676_306_908)
    // Every command that reads the deck works.
    for line in ["cards", "cards bad browse", "stats cards", "cards export bad", "cards bad"] {
      #expect(!session.handle(line).failed, "\(line)")
    }
  }

  /// delete asks first: anything but yes keeps the deck; yes deletes its cards and reviews.
  @Test func deletingADeckAsksFirst() throws {
    let store = SQLiteStore.inMemory()
    var session = Self.session(store)
    _ = session.handle("cards load caps.txt")
    _ = session.handle("cards caps")
    _ = session.handle("vienna")
    _ = session.handle("quit")
    let ask = Self.text(session.handle("cards CAPS delete"))
    #expect(
      ask.first
        == "Delete caps: 4 cards, 1 review? It cannot be undone (its file can be loaded again, as new cards). Type yes to delete it."
    )
    #expect(Self.text(session.handle("no")).first == "Kept caps.")
    #expect(try store.read(Decks.Cards(profile: "ada", deck: "caps", reverse: false)).count == 4)
    _ = session.handle("cards caps delete")
    #expect(Self.text(session.handle("perhaps")).first == "Type yes to delete caps, or no to keep it.")
    #expect(Self.text(session.handle("yes")).first == "Deleted caps: 4 cards and 1 review.")
    #expect(session.isInCalculator)
    #expect(try store.read(Decks.Cards(profile: "ada", deck: "caps", reverse: false)).isEmpty)
    #expect(try store.read(Decks.ReviewLog(profile: "ada", deck: nil)).isEmpty)
    #expect(Self.text(session.handle("cards caps delete")).first == "no deck called caps: cards lists your decks")
  }

  /// `set retention` is kept with the settings and schedules the reviews: a lower target
  /// gives a longer interval for the same card and grade.
  @Test func theTargetRetentionSchedulesTheReviews() throws {
    func interval(retention: String?) throws -> Int64 {
      let store = SQLiteStore.inMemory()
      let clock = ManualClock()
      var session = Self.session(store, clock)
      if let retention {
        #expect(Self.text(session.handle("set retention \(retention)")).first?.hasPrefix("retention: ") == true)
      }
      _ = session.handle("cards load caps.txt")
      _ = session.handle("cards caps")
      _ = session.handle("vienna")  // at once: easy, into review
      _ = session.handle("quit")
      let card = try #require(
        try store.read(Decks.Cards(profile: "ada", deck: "caps", reverse: false)).first { $0.key.note == "g1" })
      return card.schedule.due - clock.nowMilliseconds()
    }
    let standard = try interval(retention: nil)
    #expect(try interval(retention: "0.9") == standard)
    #expect(try interval(retention: "70%") > standard)
    #expect(try interval(retention: "0.97") < standard)
    var session = Self.session(SQLiteStore.inMemory())
    #expect(Self.text(session.handle("set retention 0.5")).isEmpty)
    #expect(session.handle("set retention 0.5").outputs.contains { if case .error = $0 { true } else { false } })
    _ = session.handle("set retention 0.85")
    #expect(Self.text(session.handle("set")).first?.holds("retention 85%") == true)
  }

  /// stats cards: reviews a day, what falls due, the true retention and the hardest cards.
  @Test func statisticsCountTheReviews() throws {
    let store = SQLiteStore.inMemory()
    let clock = ManualClock()
    var session = Self.session(store, clock)
    #expect(Self.text(session.handle("stats cards")) == ["No decks yet. Add one: cards load FILE."])
    _ = session.handle("cards load caps.txt")
    _ = session.handle("cards caps")
    _ = session.handle("vienna")  // easy: in review, back in a few days
    _ = session.handle("london")  // France wrong: again
    _ = session.handle("quit")
    var report = Self.text(session.handle("stats cards"))
    #expect(report.first == "Flashcards for ada: 6 cards (each way), 4 new, 1 learning, 1 in review; 2 reviews in all.")
    #expect(report.contains("True retention: no card has come back on a later day yet (the target is 90%)."))
    // Ten days on, France (due first) is recalled, and Austria forgotten.
    clock.advance(milliseconds: 10 * FSRS.day)
    _ = session.handle("cards caps new 0")
    _ = session.handle("paris")
    _ = session.handle("rome")
    _ = session.handle("quit")
    report = Self.text(session.handle("stats cards"))
    #expect(
      report.contains {
        $0.hasPrefix(
          "True retention over 30 days: 50% of 2 reviews of cards seen on an earlier day were recalled (the target is 90%)."
        )
      }, "\(report)")
    let hardest = try #require(report.last?.split(separator: "\n"))
    #expect(hardest[0] == "deck question answer recall lapses")
    #expect(hardest[1].hasPrefix("caps Capital of Austria? Vienna "), "\(hardest)")
  }

  /// cards export prints the deck as Anki's plain text with each card's schedule; loaded into
  /// another profile it is the same deck, with the same schedules.
  @Test func anExportedDeckLoadsBackWithItsSchedules() throws {
    let store = SQLiteStore.inMemory()
    var session = Self.session(store)
    _ = session.handle("cards load caps.txt")
    _ = session.handle("cards caps")
    _ = session.handle("vienna")
    _ = session.handle("london")
    _ = session.handle("quit")
    guard case .result(let text)? = session.handle("cards export caps").outputs.first else {
      Issue.record("no export")
      return
    }
    #expect(text.hasPrefix("#separator:comma\n#html:false\n#guid column:1\n"))
    #expect(text.holds("g3,Cloze,caps,{{c1::Canberra}} is in {{c2::Australia}},,"))
    let other = SQLiteStore.inMemory()
    var copy = testSession(clock: ManualClock(), store: other)
    copy.state.files = MemoryFiles(["caps.txt": Array(text.utf8)])
    #expect(
      Self.text(copy.handle("cards load caps.txt")).last?.hasPrefix(
        "Loaded caps (Anki's plain text): 3 notes; cards 6 added") == true)
    for reverse in [false, true] {
      let before = try store.read(Decks.Cards(profile: "ada", deck: "caps", reverse: reverse))
      let after = try other.read(Decks.Cards(profile: "ada", deck: "caps", reverse: reverse))
      #expect(before.map(\.key) == after.map(\.key))
      #expect(before.map(\.schedule) == after.map(\.schedule))
      #expect(before.map(\.question) == after.map(\.question) && before.map(\.answer) == after.map(\.answer))
    }
  }

  /// optimize fits the deck's weights once it has enough reviews, keeps them, and the
  /// deck's schedules use them; with too few it says how many it needs.
  @Test func optimizeFitsTheDecksWeights() throws {
    let store = SQLiteStore.inMemory()
    let clock = ManualClock()
    var session = testSession(clock: clock, store: store)
    let notes = (1...150).map { "n\($0)\tquestion \($0)\tanswer \($0)" }
    session.state.files = MemoryFiles([
      "big.txt": Array(("#separator:tab\n#guid column:1\n" + notes.joined(separator: "\n")).utf8)
    ])
    _ = session.handle("cards load big.txt")
    let few = Self.text(session.handle("cards big optimize"))
    #expect(
      few.first?.hasPrefix("big has 0 reviews of a card seen on an earlier day; fitting FSRS to a deck needs 512")
        == true, "\(few)")
    var truth = FSRS.defaultWeights
    truth[20] = 0.4
    let histories = FSRSOptimizerTests.histories(cards: 150, days: 120, seed: 5, truth: truth)
    for (index, reviews) in histories.enumerated() {
      for review in reviews {
        try store.write(
          Decks.Review(
            profile: "ada", key: Decks.Key(deck: "big", note: "n\(index + 1)", ordinal: 1, reverse: false),
            rating: review.rating, at: review.at, milliseconds: 3000, before: .new(at: 0), after: .new(at: 0)))
      }
    }
    // Ctrl-C stops it, and nothing is kept.
    session.state.interruption = Interruption { true }
    #expect(Self.text(session.handle("cards big optimize")) == ["Stopped (Ctrl-C): big keeps the weights it had."])
    #expect(try store.read(Decks.Weights(profile: "ada", deck: "big")) == nil)
    session.state.interruption = .never
    let fitted = Self.text(session.handle("cards BIG optimize"))
    #expect(fitted.first?.hasPrefix("Fitted FSRS to ") == true, "\(fitted)")
    #expect(fitted.first?.hasSuffix("big's reviews use them from now on.") == true, "\(fitted)")
    let weights = try #require(try store.read(Decks.Weights(profile: "ada", deck: "big")))
    #expect(weights.count == 21 && weights != FSRS.defaultWeights)
    var problems = DeckProblems()
    #expect(CardsCommand.scheduler("big", in: session.state, problems: &problems).weights == weights)
    #expect(CardsCommand.scheduler("other", in: session.state, problems: &problems).weights == FSRS.defaultWeights)
    #expect(problems.isEmpty)
    // Deleting the deck deletes its weights.
    _ = session.handle("cards big delete")
    _ = session.handle("yes")
    #expect(try store.read(Decks.Weights(profile: "ada", deck: "big")) == nil)
  }
}
