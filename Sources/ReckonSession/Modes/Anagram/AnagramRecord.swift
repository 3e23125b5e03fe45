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

extension AnagramRecord {
  /// The name its rounds are kept under.
  public static let game = "anagram"
  /// The most words and points a round read back may count (a round is tens of words, each
  /// worth at most 1,000 points a letter): the statistics add them up, so a damaged row
  /// that holds more is left out.
  static let maxCount = 1_000_000
  static let maxScore = 1_000_000_000

  /// The round as the store keeps it: its level and counts in JSON.
  public var gameResult: GameResult {
    let data = JSON.object([
      "level": .string(level), "solved": .number(Double(solved)), "played": .number(Double(played)),
    ])
    return GameResult(
      profile: profile, game: Self.game, startedAt: startedAt, day: day, finished: finished, score: score,
      data: data.text)
  }

  /// A round read back from the store; nil for one that is not an anagram round, or whose
  /// data this Reckon cannot read.
  public init?(_ result: GameResult) {
    guard result.game == Self.game, case .success(let data) = JSON.parse(result.data),
      let level = data["level"]?.string, let solved = data["solved"]?.integer, let played = data["played"]?.integer,
      // Counts a round can have: the statistics add them up.
      (0...AnagramRecord.maxCount).contains(played), (0...played).contains(solved),
      (0...AnagramRecord.maxScore).contains(result.score)
    else { return nil }
    self.init(
      profile: result.profile, startedAt: result.startedAt, day: result.day, level: level, score: result.score,
      solved: solved, played: played, finished: result.finished)
  }
}

extension Store {
  /// A profile's anagram rounds, oldest first.
  public func anagramRounds(profile: String) throws(StoreError) -> [AnagramRecord] {
    try read(GameResults.All(profile: profile, game: AnagramRecord.game)).compactMap(AnagramRecord.init)
  }
}
