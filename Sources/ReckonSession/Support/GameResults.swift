/// What a game keeps of each round: the same few columns for every game, and the rest in
/// `data`, a text the game writes and reads itself (JSON). A game that keeps only its results
/// (the personality quiz, the anagram game) needs no table or SQL of its own: it saves and
/// reads these requests (ReckonStore's `SQLiteStore+GameResults.swift` runs them).
public enum GameResults {
  /// Saves a round as it stands, replacing what was saved of the same round (the same
  /// profile, game and `startedAt`): a round saved after every move keeps its score if it is
  /// left in the middle.
  public struct Save: StoreWrite {
    public typealias Answer = Void
    public var result: GameResult

    public init(_ result: GameResult) { self.result = result }
  }

  /// Saves a finished round as a new row, whatever else was saved: for games whose rounds
  /// are saved once, at their end (a personality result), where two of the same millisecond
  /// are two results.
  public struct Add: StoreWrite {
    public typealias Answer = Void
    public var result: GameResult

    public init(_ result: GameResult) { self.result = result }
  }

  /// A profile's rounds of a game, oldest first.
  public struct All: StoreRead {
    public typealias Answer = [GameResult]
    public var profile: String
    public var game: String

    public init(profile: String, game: String) {
      self.profile = profile
      self.game = game
    }
  }
}

/// One round of a game, as far as it has gone.
public struct GameResult: Sendable, Hashable {
  public var profile: String
  /// The game's name (`anagram`, `personality`).
  public var game: String
  /// When the round started (milliseconds since 1970): with the profile and game, its key.
  public var startedAt: Int64
  /// The local day it started on.
  public var day: Day
  /// Whether the round reached its end (not left or cut short).
  public var finished: Bool
  /// Its score, for games that keep one (0 otherwise).
  public var score: Int
  /// The rest, as the game writes it.
  public var data: String

  public init(
    profile: String, game: String, startedAt: Int64, day: Day, finished: Bool, score: Int, data: String
  ) {
    self.profile = profile
    self.game = game
    self.startedAt = startedAt
    self.day = day
    self.finished = finished
    self.score = score
    self.data = data
  }
}
