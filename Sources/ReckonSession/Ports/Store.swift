/// Persistence, injected: the session asks for what it needs and never knows it is SQLite.
///
/// Every write is its own transaction, finished before the call returns, so whatever the
/// session has acknowledged on screen is already saved.
public protocol Store: AnyObject, Sendable {
  /// Makes ready to save (creating the database if need be) and returns, the first time
  /// only, what went wrong in words for the user: a folder that cannot be written, a damaged
  /// file moved aside.
  func prepareToSave() -> [String]
  /// What went wrong opening the store, if it has been opened, the first time only; it
  /// opens nothing.
  func takeWarnings() -> [String]

  /// False when there is certainly nothing saved yet (no database file): start-up then
  /// reads no settings, and need not know whose they would be.
  var mayHaveSavedData: Bool { get }
  /// The settings saved for a profile, as text (`digits` → `20`).
  func settings(profile: String) throws(StoreError) -> SavedSettings
  /// Saves one setting for a profile, replacing any earlier value (and creating the
  /// profile at `milliseconds` if it is new).
  func saveSetting(_ key: String, value: String, profile: String, at milliseconds: Int64) throws(StoreError)

  /// Creates a profile unless it exists.
  func addProfile(_ name: String, at milliseconds: Int64) throws(StoreError)
  /// Every profile with what it has done, by name.
  func profiles() throws(StoreError) -> [ProfileSummary]

  /// Saves one answer and, when `learning` is given, moves the item's box in the same
  /// transaction (from the box saved, so two processes drilling at once both count).
  /// Returns the item's new learning state.
  @discardableResult
  func record(_ answer: AnswerRecord, learning: Leitner?) throws(StoreError) -> FactState?
  /// Puts an item back in Leitner box 1, due at once, without an answer (a drill's answer
  /// shown before it was given), and counts the showing in its `ItemTotals.shown`.
  func setBack(item: String, profile: String, mode: String, at milliseconds: Int64) throws(StoreError)
  /// The learning state of every item a profile has answered in a mode, by item.
  func factStates(profile: String, mode: String) throws(StoreError) -> [String: FactState]
  /// How often each item was answered and how well, and how often its answer was shown,
  /// by item (an item only ever shown is there, with no answers).
  func itemTotals(profile: String, mode: String) throws(StoreError) -> [String: ItemTotals]
  /// Answers per local day, from `first` on (days without answers are left out).
  func activity(profile: String, mode: String, from first: Day) throws(StoreError) -> [DayActivity]
  /// Every local day with at least one answer in the mode, newest first.
  func practiceDays(profile: String, mode: String) throws(StoreError) -> [Day]
  /// Answers in a mode counted by difficulty and category (a trivia quiz's breakdown).
  func answerGroups(profile: String, mode: String) throws(StoreError) -> [AnswerGroup]

  /// The daily challenges of a profile from `first` to `last` (local days), oldest first.
  func dailyChallenges(profile: String, from first: Day, through last: Day) throws(StoreError) -> [DailyRecord]
  /// Saves a daily challenge's state and, when it is answered, the answer, in one
  /// transaction. A challenge already finished (by another Reckon, say) is left as it is.
  /// Returns the challenge as saved.
  @discardableResult
  func saveDaily(_ challenge: DailyRecord, answer: AnswerRecord?) throws(StoreError) -> DailyRecord

  /// Saves the result of a personality quiz.
  func savePersonality(_ result: PersonalityRecord) throws(StoreError)
  /// A profile's personality results, oldest first.
  func personalityResults(profile: String) throws(StoreError) -> [PersonalityRecord]

  /// Saves an anagram round as it stands, replacing what was saved of the same round (a
  /// round is saved after every word, so leaving in the middle keeps its score).
  func saveAnagramRound(_ round: AnagramRecord) throws(StoreError)
  /// A profile's anagram rounds, oldest first.
  func anagramRounds(profile: String) throws(StoreError) -> [AnagramRecord]
}

extension Store {
  /// A store that cannot tell answers that it may have something.
  public var mayHaveSavedData: Bool { true }
}

/// Settings as the store keeps them: text by name (`digits` → `20`).
public typealias SavedSettings = [String: String]

/// Why the store could not do something, in words for the user.
public struct StoreError: Error, Sendable, Equatable {
  public var message: String

  public init(_ message: String) { self.message = message }
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

/// Where an item stands in the Leitner boxes.
public struct FactState: Sendable, Hashable {
  /// 1 (just missed, or new) to `Leitner.boxes` (known).
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
  /// How often its answer was shown without being given (`setBack`): not an answer.
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

/// A profile and how much it has done.
public struct ProfileSummary: Sendable, Hashable {
  public var name: String
  public var answers: Int
  /// The local day of its last answer, if any.
  public var lastDay: Day?

  public init(name: String, answers: Int, lastDay: Day?) {
    self.name = name
    self.answers = answers
    self.lastDay = lastDay
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

/// One day's challenge of one difficulty, as saved: open until saved first, then in
/// progress with the time it has run, then finished, right or wrong.
public struct DailyRecord: Sendable, Hashable {
  public var profile: String
  public var day: Day
  /// `easy`, `medium` or `hard`.
  public var difficulty: String
  /// The question's key.
  public var item: String
  /// The time the question has been on screen, paused time left out, as of the last save.
  public var elapsedMilliseconds: Int64
  public var finished: Bool
  /// Right or wrong, once finished (a challenge that ran out of time is wrong).
  public var correct: Bool
  /// The answer given (empty when the time ran out).
  public var given: String
  /// When this state was saved (milliseconds since 1970).
  public var updatedAt: Int64

  public init(
    profile: String, day: Day, difficulty: String, item: String, elapsedMilliseconds: Int64, finished: Bool = false,
    correct: Bool = false, given: String = "", updatedAt: Int64
  ) {
    self.profile = profile
    self.day = day
    self.difficulty = difficulty
    self.item = item
    self.elapsedMilliseconds = elapsedMilliseconds
    self.finished = finished
    self.correct = correct
    self.given = given
    self.updatedAt = updatedAt
  }
}

/// The result of one personality quiz taken to the end.
public struct PersonalityRecord: Sendable, Hashable {
  public var profile: String
  /// The quiz's name (`animal`) and title (`Which animal are you?`).
  public var quiz: String
  public var title: String
  /// The outcome's name as shown (`Owl`), its symbol, and the runner-up's name (empty when
  /// no other outcome was chosen).
  public var outcome: String
  public var symbol: String
  public var runnerUp: String
  /// When it was finished (milliseconds since 1970) and on which local day.
  public var takenAt: Int64
  public var day: Day

  public init(
    profile: String, quiz: String, title: String, outcome: String, symbol: String, runnerUp: String, takenAt: Int64,
    day: Day
  ) {
    self.profile = profile
    self.quiz = quiz
    self.title = title
    self.outcome = outcome
    self.symbol = symbol
    self.runnerUp = runnerUp
    self.takenAt = takenAt
    self.day = day
  }
}

/// One round of the anagram game, as far as it has gone.
public struct AnagramRecord: Sendable, Hashable {
  public var profile: String
  /// When the round started (milliseconds since 1970): with the profile, the round's key.
  public var startedAt: Int64
  /// The local day it started on.
  public var day: Day
  /// `easy`, `medium`, `hard` or a level of the user's own.
  public var level: String
  public var score: Int
  /// Words solved, and words played (solved, skipped or timed out) so far.
  public var solved: Int
  public var played: Int
  /// Whether the round reached its last word (not left or cut short).
  public var finished: Bool

  public init(
    profile: String, startedAt: Int64, day: Day, level: String, score: Int, solved: Int, played: Int, finished: Bool
  ) {
    self.profile = profile
    self.startedAt = startedAt
    self.day = day
    self.level = level
    self.score = score
    self.solved = solved
    self.played = played
    self.finished = finished
  }
}
