/// Which question is each day's challenge: the same for everybody with the same bank on the
/// same date, like a daily puzzle friends can compare, and none again until every question
/// of its difficulty has had its day.
///
/// The questions of a difficulty are put in the order of their keys, and the bank's
/// fingerprint (the difficulty and every key) seeds one shuffle of them. Day N of the
/// calendar is the question at place N mod count of that shuffle: every question once per
/// cycle of count days, in the same order each cycle (shuffling each cycle afresh could put
/// one question on the last day of a cycle and the first of the next). A new release with a
/// different bank simply gives a different sequence.
public enum DailyQuestions {
  public static func question(for day: Day, difficulty: Difficulty, in bank: QuestionBank) -> TriviaQuestion? {
    let pool = bank.matching(difficulty: difficulty, category: nil).sorted { $0.key < $1.key }
    guard !pool.isEmpty else { return nil }
    var fingerprint = StableHash()
    fingerprint.add(difficulty.rawValue)
    for question in pool { fingerprint.add(question.key) }
    let n = pool.count
    let place = ((day.number % n) + n) % n
    var random = SeededRandom(seed: fingerprint.value)
    let order = Shuffle.items(Array(0..<n), &random)
    return pool[order[place]]
  }

  /// The order of a daily question's answers: fixed by the day and the question, so friends
  /// see the same letters.
  static func choices(for question: TriviaQuestion, on day: Day) -> Choices {
    var random = SeededRandom(seed: StableHash.of(question.key + " " + day.iso))
    return Choices(question, random: &random)
  }
}
