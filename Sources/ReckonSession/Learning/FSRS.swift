import Glibc

/// The FSRS scheduler, version 6 (the Free Spaced Repetition Scheduler that Anki uses): for
/// each card a memory state, its stability (the days until the chance of recalling it falls
/// to 90%) and its difficulty (1 to 10), from which the chance of recall after any time (its
/// retrievability) and the next interval for a target retention follow. A new or forgotten
/// card goes through short learning steps first.
///
/// The rules are those of the reference implementation (`fsrs` on PyPI, version 6), and
/// `FSRSTests` replays thousands of review histories through both: the same states,
/// stabilities and difficulties to within 1e-6, the same intervals and due times. Time is in
/// milliseconds since 1970 (the session's clock); days elapsed are whole days, counted down.
/// Fuzz, when on, comes from the session's injected randomness.
///
/// A schedule read back from a file or the store is checked before it gets here (the
/// flashcards' `Decks.Schedule.problem`: a phase, a step of its phase, a stability from
/// `stabilityRange` and a difficulty from 1 to 10, times in the years 1 to 9999). Nothing here
/// traps on other values all the same: a difference of times stops at the limits of `Int64`,
/// an interval that is not a finite number of days is the longest, a missing memory state is
/// a first review's, and a step outside its phase's steps is taken as the nearest.
struct FSRS: Sendable, Equatable {
  /// The 21 weights of the model: FSRS-6's published defaults unless fitted to a deck.
  var weights: [Double] = FSRS.defaultWeights
  /// The chance of recall each interval aims for.
  var desiredRetention = 0.9
  /// The learning steps of a new card, and the relearning steps of a forgotten one.
  var learningSteps: [Int64] = [60_000, 600_000]
  var relearningSteps: [Int64] = [600_000]
  /// The longest interval, in days.
  var maximumInterval = 36_500
  /// The stabilities a schedule may hold, in days: FSRS's least (0.001), and an upper bound
  /// no review history reaches (intervals stop at 100 years) that keeps every interval and
  /// chance of recall finite. A review never gives more.
  static let stabilityRange = 0.001...10_000_000.0
  /// A card's difficulty, as FSRS clamps it.
  static let difficultyRange = 1.0...10.0
  /// Whether intervals of 3 days and more are spread a little at random (so that cards learnt
  /// together do not stay due together).
  var fuzz = true

  init(weights: [Double] = FSRS.defaultWeights, desiredRetention: Double = 0.9, fuzz: Bool = true) {
    self.weights = weights
    self.desiredRetention = desiredRetention
    self.fuzz = fuzz
  }

  static let defaultWeights = [
    0.212, 1.2931, 2.3065, 8.2956, 6.4133, 0.8334, 3.0194, 0.001, 1.8722, 0.1666, 0.796, 1.4835, 0.0614, 0.2629,
    1.6483, 0.6014, 1.8729, 0.5425, 0.0912, 0.0658, 0.1542,
  ]
  static let day: Int64 = 86_400_000

  enum Rating: Int, Sendable, Hashable, CaseIterable {
    case again = 1, hard, good, easy
  }

  enum Phase: Int, Sendable, Hashable {
    case learning = 1, review, relearning
  }

  /// A card's schedule: where it is, its memory state once it has one, and when it is due.
  struct Card: Sendable, Equatable {
    var phase = Phase.learning
    /// The learning or relearning step it is at (nil in review).
    var step: Int? = 0
    var stability: Double?
    var difficulty: Double?
    var due: Int64
    var lastReview: Int64?

    init(due: Int64) { self.due = due }
  }

  /// The memory formulas over these weights.
  var memory: FSRSMemory<Double> { FSRSMemory(w: weights) }

  var decay: Double { memory.decay }

  /// The chance of recalling `card` at `now`: 0 before its first review.
  func retrievability(_ card: Card, at now: Int64) -> Double {
    guard let last = card.lastReview, let stability = card.stability else { return 0 }
    let r = memory.retrievability(elapsedDays: max(0, FSRS.days(from: last, to: now)), stability: stability)
    return r.isNaN ? 0 : min(max(r, 0), 1)
  }

  /// Whole days from one moment to another, counted down (as Python's `timedelta.days`). A
  /// difference past the limits of `Int64` is taken as the limit.
  static func days(from start: Int64, to end: Int64) -> Int64 {
    let (difference, overflow) = end.subtractingReportingOverflow(start)
    if overflow { return end > start ? .max / day : .min / day }
    return difference >= 0 ? difference / day : -((-(difference + 1)) / day + 1)
  }

  /// `card` reviewed at `now` with `rating`: its next memory state, phase, step and due time.
  func review(_ card: Card, _ rating: Rating, at now: Int64, random: inout some RandomNumberGenerator) -> Card {
    var card = card
    var interval: Int64
    switch card.phase {
    case .learning, .relearning:
      let steps = card.phase == .learning ? learningSteps : relearningSteps
      if card.phase == .learning, card.stability == nil || card.difficulty == nil {
        (card.stability, card.difficulty) = memory.afterReview(nil, elapsedDays: 0, rating: rating.rawValue)
      } else {
        updateMemory(&card, rating, at: now)
      }
      let step = min(max(card.step ?? 0, 0), steps.count)
      if steps.isEmpty || (step >= steps.count && rating != .again) {
        interval = graduate(&card)
      } else {
        switch rating {
        case .again:
          card.step = 0
          interval = steps[0]
        case .hard:
          interval =
            step == 0 && steps.count == 1
            ? steps[0] * 3 / 2 : step == 0 ? (steps[0] + steps[1]) / 2 : steps[step]
        case .good:
          if step + 1 == steps.count {
            interval = graduate(&card)
          } else {
            card.step = step + 1
            interval = steps[step + 1]
          }
        case .easy:
          interval = graduate(&card)
        }
      }
    case .review:
      updateMemory(&card, rating, at: now)
      if rating == .again, !relearningSteps.isEmpty {
        card.phase = .relearning
        card.step = 0
        interval = relearningSteps[0]
      } else {
        interval = FSRS.day * Int64(nextInterval(card.stability ?? FSRS.stabilityRange.lowerBound))
      }
    }
    if fuzz && card.phase == .review { interval = fuzzed(interval, random: &random) }
    card.due = now + interval
    card.lastReview = now
    return card
  }

  /// The card leaves its steps for review; its interval.
  private func graduate(_ card: inout Card) -> Int64 {
    card.phase = .review
    card.step = nil
    return FSRS.day * Int64(nextInterval(card.stability ?? FSRS.stabilityRange.lowerBound))
  }

  /// A review after the first: the short-term rule on the same day (under a whole day since
  /// the last), the long-term one after (a card with no memory state gets a first review's).
  /// The stability never passes `stabilityRange`.
  private func updateMemory(_ card: inout Card, _ rating: Rating, at now: Int64) {
    let elapsed = card.lastReview.map { FSRS.days(from: $0, to: now) } ?? 0
    let state = card.stability.flatMap { s in card.difficulty.map { (s, $0) } }
    let (stability, difficulty) = memory.afterReview(state, elapsedDays: elapsed, rating: rating.rawValue)
    (card.stability, card.difficulty) = (min(stability, FSRS.stabilityRange.upperBound), difficulty)
  }

  func initialStability(_ rating: Rating) -> Double { memory.initialStability(rating.rawValue) }

  /// Days until the next review for the desired retention: whole days (halves to even, as
  /// Python rounds), at least 1, at most the maximum (which a number of days that is not
  /// finite is taken as).
  func nextInterval(_ stability: Double) -> Int {
    let days = (stability / memory.factor * (pow(desiredRetention, 1 / decay) - 1)).rounded(.toNearestOrEven)
    guard days.isFinite else { return maximumInterval }
    return Int(min(max(days, 1), Double(maximumInterval)))
  }

  /// The days an interval of `days` is spread over, as the reference computes them: a draw
  /// from [low, high + 1) rounded, so high + 1 comes up too (half a day's share), as there.
  func fuzzRange(_ days: Int64) -> (low: Int64, high: Int64) {
    var delta = 1.0
    for (start, end, factor) in [(2.5, 7.0, 0.15), (7.0, 20.0, 0.1), (20.0, Double.infinity, 0.05)] {
      delta += factor * max(min(Double(days), end) - start, 0)
    }
    let high = min(Int64((Double(days) + delta).rounded(.toNearestOrEven)), Int64(maximumInterval))
    return (min(max(2, Int64((Double(days) - delta).rounded(.toNearestOrEven))), high), high)
  }

  /// An interval of 3 days or more spread at random over a range that grows with it (about
  /// ±15% from 2.5 to 7 days, ±10% to 20, ±5% past that).
  func fuzzed(_ interval: Int64, random: inout some RandomNumberGenerator) -> Int64 {
    let days = interval / FSRS.day
    guard days >= 3 else { return interval }
    let (low, high) = fuzzRange(days)
    let picked = (Double.random(in: 0..<1, using: &random) * Double(high - low + 1) + Double(low))
      .rounded(.toNearestOrEven)
    return FSRS.day * min(Int64(picked), Int64(maximumInterval))
  }
}
