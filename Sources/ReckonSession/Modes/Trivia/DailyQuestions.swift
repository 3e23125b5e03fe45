/// Which question is each day's challenge: the same for everybody with the same bank on the
/// same date, like a daily puzzle friends can compare, and none again until every question
/// of its difficulty has had its day.
///
/// The questions of a difficulty are put in the order of their keys, and the bank's
/// fingerprint (the difficulty and every key) seeds one shuffle of them. Day N of the
/// calendar is the question at place N mod count of that shuffle: every question once per
/// cycle of count days, in the same order each cycle (shuffling each cycle afresh could put
/// one question on the last day of a cycle and the first of the next).
///
/// The built-in bank grows in editions, and the days already played must not change: a
/// question added later carries the day it joins (`TriviaQuestion.dailyFrom`). The days
/// before an edition's first keep the order they had; from that day on, the questions of
/// the bank as it then is are gone through from the edition's first day, the new ones first
/// (shuffled as above) and then those of the last cycle, in the order they were last asked,
/// so that no question returns sooner than a whole cycle of the bigger bank.
public enum DailyQuestions {
  public static func question(for day: Day, difficulty: Difficulty, in bank: QuestionBank) -> TriviaQuestion? {
    Schedule(difficulty: difficulty, bank: bank).question(for: day)
  }

  /// The editions of one difficulty's questions, each with its own cycle.
  struct Schedule {
    struct Edition {
      /// Its first day; nil for the first edition, which has always been.
      var first: Day?
      /// The questions in the order of their days.
      var cycle: [TriviaQuestion]
    }
    var editions: [Edition] = []

    init(difficulty: Difficulty, bank: QuestionBank) {
      let all = bank.matching(difficulty: difficulty, category: nil).sorted { $0.key < $1.key }
      let starts = Set(all.compactMap(\.dailyFrom)).sorted()
      let original = all.filter { $0.dailyFrom == nil }
      if !original.isEmpty { editions.append(Edition(first: nil, cycle: Schedule.shuffled(original, difficulty))) }
      for start in starts {
        let pool = all.filter { $0.dailyFrom.map { $0 <= start } ?? true }
        // The questions of the last cycle, most recently asked first.
        var recent: [TriviaQuestion] = []
        var seen: Set<String> = []
        if let last = editions.last {
          for back in 1...last.cycle.count {
            guard let asked = question(for: start.advanced(by: -back)), seen.insert(asked.key).inserted else {
              continue
            }
            recent.append(asked)
          }
        }
        let fresh = Schedule.shuffled(pool.filter { !seen.contains($0.key) }, difficulty, fingerprint: pool)
        editions.append(Edition(first: start, cycle: fresh + recent.reversed()))
      }
    }

    /// The questions in the order the fingerprint of `fingerprint` (the difficulty and every
    /// key, in key order) shuffles them.
    static func shuffled(
      _ questions: [TriviaQuestion], _ difficulty: Difficulty, fingerprint: [TriviaQuestion]? = nil
    ) -> [TriviaQuestion] {
      var hash = StableHash()
      hash.add(difficulty.rawValue)
      for question in fingerprint ?? questions { hash.add(question.key) }
      var random = SeededRandom(seed: hash.value)
      return Shuffle.items(Array(questions.indices), &random).map { questions[$0] }
    }

    func question(for day: Day) -> TriviaQuestion? {
      // The last edition begun by then (none for a day before every edition: the questions
      // of a difficulty that had none at first have no day before theirs).
      guard let edition = editions.last(where: { $0.first.map { $0 <= day } ?? true }) else { return nil }
      let n = edition.cycle.count
      guard n > 0 else { return nil }
      let offset = day.number - (edition.first?.number ?? 0)
      return edition.cycle[((offset % n) + n) % n]
    }
  }

  /// The order of a daily question's answers: fixed by the day and the question, so friends
  /// see the same letters.
  static func choices(for question: TriviaQuestion, on day: Day) -> Choices {
    var random = SeededRandom(seed: StableHash.of(question.key + " " + day.iso))
    return Choices(question, random: &random)
  }
}
