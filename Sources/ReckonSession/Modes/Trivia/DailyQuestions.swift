/// Which question is each day's challenge: the same for everybody with the same bank on the
/// same date, like a daily puzzle friends can compare, and never the same again until the
/// bank has been gone through.
///
/// The questions of a difficulty are put in the order of their keys; the bank's fingerprint
/// (every key, and the difficulty) seeds a shuffle of them. Day N of the calendar is the
/// question at place N mod count of the shuffle for cycle N div count, each cycle shuffled
/// afresh. So within a cycle every question comes once; a new release with a different bank
/// simply gives a different sequence.
public enum DailyQuestions {
  public static func question(for day: Day, difficulty: Difficulty, in bank: QuestionBank) -> TriviaQuestion? {
    let pool = bank.matching(difficulty: difficulty, category: nil).sorted { $0.key < $1.key }
    guard !pool.isEmpty else { return nil }
    var fingerprint = StableHash()
    fingerprint.add(difficulty.rawValue)
    for question in pool { fingerprint.add(question.key) }
    let n = pool.count
    let cycle = day.number >= 0 ? day.number / n : (day.number - n + 1) / n
    let place = day.number - cycle * n
    var random = SeededRandom(seed: fingerprint.value ^ UInt64(bitPattern: Int64(cycle)) &* 0x9E37_79B9_7F4A_7C15)
    let order = Choices.shuffled(Array(0..<n), &random)
    return pool[order[place]]
  }

  /// The order of a daily question's answers: fixed by the day and the question, so friends
  /// see the same letters.
  static func choices(for question: TriviaQuestion, on day: Day) -> Choices {
    var random = SeededRandom(seed: StableHash.of(question.key + " " + day.iso))
    return Choices(question, random: &random)
  }
}
