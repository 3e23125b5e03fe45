/// Answers given in any mode that asks questions (the drill, the quiz, the daily challenge),
/// and the learning state of the items a mode schedules (the drill's facts), as requests to
/// the store (ReckonStore's `SQLiteStore+Answers.swift` runs them). How an item moves
/// between boxes is the mode's rule, not the store's: `Record` hands the saved state to
/// `learn` inside the transaction that saves the answer, so two Reckons answering the same
/// item at once both count.
public enum Answers {
  /// Saves one answer and, when `learn` is given, the item's next learning state, worked out
  /// by `learn` from the state saved (nil for an item never scheduled) in the same
  /// transaction. Answers the item's new learning state.
  public struct Record: StoreWrite {
    public typealias Answer = FactState?
    public var answer: AnswerRecord
    public var learn: (@Sendable (FactState?) -> FactState)?

    public init(_ answer: AnswerRecord, learn: (@Sendable (FactState?) -> FactState)? = nil) {
      self.answer = answer
      self.learn = learn
    }
  }

  /// Saves an item's learning state without an answer (a drill's answer shown before it was
  /// given puts its fact back at the start), and counts the showing in `ItemTotals.shown`.
  public struct SetBack: StoreWrite {
    public typealias Answer = Void
    public var item: String
    public var profile: String
    public var mode: String
    public var state: FactState

    public init(item: String, profile: String, mode: String, to state: FactState) {
      self.item = item
      self.profile = profile
      self.mode = mode
      self.state = state
    }
  }

  /// The learning state of every item a profile has answered in a mode, by item.
  public struct FactStates: StoreRead {
    public typealias Answer = [String: FactState]
    public var profile: String
    public var mode: String

    public init(profile: String, mode: String) {
      self.profile = profile
      self.mode = mode
    }
  }

  /// How often each item was answered and how well, and how often its answer was shown, by
  /// item (an item only ever shown is there, with no answers).
  public struct Totals: StoreRead {
    public typealias Answer = [String: ItemTotals]
    public var profile: String
    public var mode: String

    public init(profile: String, mode: String) {
      self.profile = profile
      self.mode = mode
    }
  }

  /// Answers per local day, from `first` on (days without answers are left out).
  public struct Activity: StoreRead {
    public typealias Answer = [DayActivity]
    public var profile: String
    public var mode: String
    public var first: Day

    public init(profile: String, mode: String, from first: Day) {
      self.profile = profile
      self.mode = mode
      self.first = first
    }
  }

  /// Every local day with at least one answer in the mode, newest first.
  public struct PracticeDays: StoreRead {
    public typealias Answer = [Day]
    public var profile: String
    public var mode: String

    public init(profile: String, mode: String) {
      self.profile = profile
      self.mode = mode
    }
  }

  /// Answers in a mode counted by difficulty and category (a trivia quiz's breakdown).
  public struct Groups: StoreRead {
    public typealias Answer = [AnswerGroup]
    public var profile: String
    public var mode: String

    public init(profile: String, mode: String) {
      self.profile = profile
      self.mode = mode
    }
  }
}

/// One answer given, in any mode.
public struct AnswerRecord: Sendable, Hashable {
  public var profile: String
  /// `drill`, `quiz`, …
  public var mode: String
  /// What was asked, as the mode names it (`7×8`).
  public var item: String
  /// The answer given, as the mode reads it (a drill's number, without spaces or a + sign).
  public var given: String
  public var correct: Bool
  /// How long the answer took.
  public var milliseconds: Int64
  /// When it was given (milliseconds since 1970) and on which local day.
  public var answeredAt: Int64
  public var day: Day
  /// A trivia question's category and difficulty; nil for a drill's facts.
  public var category: String?
  public var difficulty: String?

  public init(
    profile: String, mode: String, item: String, given: String, correct: Bool, milliseconds: Int64,
    answeredAt: Int64, day: Day, category: String? = nil, difficulty: String? = nil
  ) {
    self.profile = profile
    self.mode = mode
    self.item = item
    self.given = given
    self.correct = correct
    self.milliseconds = milliseconds
    self.answeredAt = answeredAt
    self.day = day
    self.category = category
    self.difficulty = difficulty
  }
}

/// Where an item stands in its mode's schedule (the drill's Leitner boxes).
public struct FactState: Sendable, Hashable {
  /// 1 (just missed, or new) up to the mode's highest box (known).
  public var box: Int
  /// When it is next due for review (milliseconds since 1970).
  public var dueAt: Int64

  public init(box: Int, dueAt: Int64) {
    self.box = box
    self.dueAt = dueAt
  }
}

/// Answers to one item, all time.
public struct ItemTotals: Sendable, Hashable {
  public var answered: Int
  public var right: Int
  /// The answers' time, all together.
  public var milliseconds: Int64
  /// How often its answer was shown without being given (`Answers.SetBack`): not an answer.
  public var shown: Int

  public init(answered: Int, right: Int, milliseconds: Int64, shown: Int = 0) {
    self.answered = answered
    self.right = right
    self.milliseconds = milliseconds
    self.shown = shown
  }
}

/// Answers on one local day.
public struct DayActivity: Sendable, Hashable {
  public var day: Day
  public var answered: Int
  public var right: Int

  public init(day: Day, answered: Int, right: Int) {
    self.day = day
    self.answered = answered
    self.right = right
  }
}

/// Answers of one difficulty and category.
public struct AnswerGroup: Sendable, Hashable {
  public var difficulty: String
  public var category: String
  public var answered: Int
  public var right: Int

  public init(difficulty: String, category: String, answered: Int, right: Int) {
    self.difficulty = difficulty
    self.category = category
    self.answered = answered
    self.right = right
  }
}

extension SessionState {
  /// Saves an answer and, when `learn` is given, the item's next learning state, worked out
  /// by `learn` from the state saved and the moment the answer was given.
  mutating func record(
    mode: String, item: String, given: String, correct: Bool, milliseconds: Int64,
    learn: (@Sendable (FactState?, _ answeredAt: Int64) -> FactState)? = nil, category: String? = nil,
    difficulty: String? = nil
  ) {
    let answer = answerRecord(
      mode: mode, item: item, given: given, correct: correct, milliseconds: milliseconds, category: category,
      difficulty: difficulty)
    let now = answer.answeredAt
    save(Answers.Record(answer, learn: learn.map { learn in { @Sendable (state: FactState?) in learn(state, now) } }))
  }

  /// An answer given now, by this profile, with the category and difficulty of what was asked
  /// when it has them (a trivia question).
  public func answerRecord(
    mode: String, item: String, given: String, correct: Bool, milliseconds: Int64, category: String? = nil,
    difficulty: String? = nil
  ) -> AnswerRecord {
    let now = clock.nowMilliseconds()
    return AnswerRecord(
      profile: profile, mode: mode, item: item, given: given, correct: correct, milliseconds: milliseconds,
      answeredAt: now, day: clock.day(atMilliseconds: now), category: category, difficulty: difficulty)
  }
}
