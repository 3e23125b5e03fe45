/// The daily challenges, as requests to the store (ReckonStore's `Modes/Trivia.swift` runs
/// them).
public enum DailyChallenges {
  /// The daily challenges of a profile from `first` to `last` (local days), oldest first.
  public struct Days: StoreRead {
    public typealias Answer = [DailyRecord]
    public var profile: String
    public var first: Day
    public var last: Day

    public init(profile: String, from first: Day, through last: Day) {
      self.profile = profile
      self.first = first
      self.last = last
    }
  }

  /// Saves a daily challenge's state and, when it is answered, the answer, in one
  /// transaction. A challenge already finished (by another Reckon, say) is left as it is.
  /// Answers the challenge as saved.
  public struct Save: StoreWrite {
    public typealias Answer = DailyRecord
    public var challenge: DailyRecord
    public var answer: AnswerRecord?

    public init(_ challenge: DailyRecord, answer: AnswerRecord? = nil) {
      self.challenge = challenge
      self.answer = answer
    }
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
