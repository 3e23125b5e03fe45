import ReckonSession
import ReckonStore

/// The store's tests save as the modes do: a drill's answer with the Leitner rule as its
/// learning rule, a shown answer back to box 1, a game's round as its `GameResult`.
extension SQLiteStore {
  @discardableResult
  func record(_ answer: AnswerRecord, learning: Leitner?) throws(StoreError) -> FactState? {
    guard let learning else { return try write(Answers.Record(answer)) }
    let (correct, now) = (answer.correct, answer.answeredAt)
    return try write(
      Answers.Record(answer, learn: { @Sendable saved in learning.next(after: saved, correct: correct, at: now) }))
  }

  func setBack(item: String, profile: String, mode: String, at milliseconds: Int64) throws(StoreError) {
    try write(Answers.SetBack(item: item, profile: profile, mode: mode, to: Leitner.start(at: milliseconds)))
  }

  func savePersonality(_ result: PersonalityRecord) throws(StoreError) { try write(GameResults.Add(result.gameResult)) }

  func saveAnagramRound(_ round: AnagramRecord) throws(StoreError) { try write(GameResults.Save(round.gameResult)) }
}
