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

extension PersonalityRecord {
  /// The name its results are kept under.
  public static let game = "personality"

  /// The result as the store keeps it: a finished round with no score, the rest in JSON.
  public var gameResult: GameResult {
    let data = JSON.object([
      "quiz": .string(quiz), "title": .string(title), "outcome": .string(outcome), "symbol": .string(symbol),
      "runnerUp": .string(runnerUp),
    ])
    return GameResult(
      profile: profile, game: Self.game, startedAt: takenAt, day: day, finished: true, score: 0, data: data.text)
  }

  /// A result read back from the store; nil for one that is not a personality result, or
  /// whose data this Reckon cannot read.
  public init?(_ result: GameResult) {
    guard result.game == Self.game, case .success(let data) = JSON.parse(result.data),
      let quiz = data["quiz"]?.string, let title = data["title"]?.string, let outcome = data["outcome"]?.string,
      let symbol = data["symbol"]?.string, let runnerUp = data["runnerUp"]?.string
    else { return nil }
    self.init(
      profile: result.profile, quiz: quiz, title: title, outcome: outcome, symbol: symbol, runnerUp: runnerUp,
      takenAt: result.startedAt, day: result.day)
  }
}

extension Store {
  /// A profile's personality results, oldest first.
  public func personalityResults(profile: String) throws(StoreError) -> [PersonalityRecord] {
    try read(GameResults.All(profile: profile, game: PersonalityRecord.game)).compactMap(PersonalityRecord.init)
  }
}
