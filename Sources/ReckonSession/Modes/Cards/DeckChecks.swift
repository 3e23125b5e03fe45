import ReckonCore

/// What a deck keeps, checked where it is read back (a `#reckon card:` line of a file, a row
/// of the store), so that no value reaches FSRS or the calendar that their arithmetic could
/// trap on (a due time of -9223372036854775808 did, in every session):
///
/// - a schedule's phase is 1 (learning), 2 (review) or 3 (relearning), and its step one of
///   its phase's steps (learning 0 or 1, relearning 0, none in review);
/// - its stability and difficulty are both there or neither; the stability is a number of
///   days from 0.001 to 10,000,000 (`FSRS.stabilityRange`), the difficulty from 1 to 10, and
///   a card in review or relearning, or reviewed at all, has both and a last review;
/// - its due time and last review lie in the years 1 to 9999 (`Day.supportedMilliseconds`);
/// - its reviews count from 0 to a million, its lapses from 0 to its reviews;
/// - a review of its history has a rating from 1 to 4 and a time in the years 1 to 9999;
/// - a deck's fitted weights are 21 numbers, each within the optimizer's bounds for it.
///
/// A file's schedule line that breaks a rule is refused with its line and reason, and its card
/// starts as new. A value in the store that breaks one is left out and said once, in one
/// warning per deck and kind for the command that met it: a card's schedule is treated as new
/// (its text, tags and history stay, and its next grade saves a good schedule over the bad
/// one; left out, the card would stay broken, since loading the deck again keeps a card's
/// schedule), a review is left out of the statistics and the fit, the weights give way to
/// FSRS's defaults.
extension Decks.Schedule {
  /// The most reviews a card may count (a review a minute for two years is fewer).
  public static let maxReviews = 1_000_000
  /// How many learning and relearning steps the scheduler has.
  static let steps = (learning: FSRS().learningSteps.count, relearning: FSRS().relearningSteps.count)

  /// Why this schedule cannot be used, naming the value; nil when it can.
  public var problem: String? {
    guard let phase = FSRS.Phase(rawValue: phase) else {
      return "phase \(self.phase) is not 1 (learning), 2 (review) or 3 (relearning)"
    }
    let steps =
      switch phase {
      case .learning: Self.steps.learning
      case .relearning: Self.steps.relearning
      case .review: 0
      }
    if let step, !(0..<steps).contains(step) {
      guard steps > 0 else { return "step \(step) in review, which has no steps" }
      return "step \(step) is not one of the \(phase == .learning ? "learning" : "relearning") steps "
        + "(0\(steps > 1 ? " to \(steps - 1)" : ""))"
    }
    if let stability, !FSRS.stabilityRange.contains(stability) {
      return "stability \(stability) is not a number of days from 0.001 to 10,000,000"
    }
    if let difficulty, !FSRS.difficultyRange.contains(difficulty) {
      return "difficulty \(difficulty) is not a number from 1 to 10"
    }
    if (stability == nil) != (difficulty == nil) {
      return stability == nil ? "a difficulty without a stability" : "a stability without a difficulty"
    }
    if let problem = Day.problem(milliseconds: due) { return "due time \(problem)" }
    if let lastReview, let problem = Day.problem(milliseconds: lastReview) { return "last review \(problem)" }
    guard (0...Self.maxReviews).contains(reviews) else {
      return "reviews \(reviews) is not a count from 0 to 1,000,000"
    }
    guard (0...reviews).contains(lapses) else { return "lapses \(lapses) is not a count from 0 to its reviews" }
    if phase != .learning || reviews > 0, stability == nil || lastReview == nil {
      let what = phase == .learning ? "reviewed \(Wording.count(reviews, "time"))" : "in \(phase)"
      return "\(what) but with no \(stability == nil ? "stability and difficulty" : "last review")"
    }
    return nil
  }

  /// This schedule after a review rated `rating` at `now` by `scheduler`: FSRS's next phase,
  /// step, memory state and due time, one more review, and one more lapse when a card in
  /// review is forgotten.
  func reviewed(
    _ rating: FSRS.Rating, at now: Int64, by scheduler: FSRS, random: inout some RandomNumberGenerator
  ) -> Decks.Schedule {
    let moved = scheduler.review(FSRS.Card(self), rating, at: now, random: &random)
    // (Counts stop at the most a schedule may hold.)
    var after = Decks.Schedule(moved, reviews: min(reviews, Self.maxReviews - 1) + 1, lapses: lapses)
    if rating == .again && phase == FSRS.Phase.review.rawValue { after.lapses = min(lapses + 1, after.reviews) }
    return after
  }

  /// The same for a rating from 1 (again) to 4 (easy), by FSRS with a deck's `weights` (nil:
  /// the defaults) and a target `retention`: nil for another rating.
  public func reviewed(
    rating: Int, at now: Int64, weights: [Double]?, retention: Double, random: inout some RandomNumberGenerator
  ) -> Decks.Schedule? {
    guard let rating = FSRS.Rating(rawValue: rating) else { return nil }
    let scheduler = FSRS(weights: weights ?? FSRS.defaultWeights, desiredRetention: retention)
    return reviewed(rating, at: now, by: scheduler, random: &random)
  }

  /// The chance of recalling the card at `now`, from 0 to 1 (0 before its first review).
  func recall(at now: Int64, by scheduler: FSRS) -> Double {
    scheduler.retrievability(FSRS.Card(self), at: now)
  }

  /// The same by FSRS with a deck's `weights` (nil: the defaults).
  public func recall(at now: Int64, weights: [Double]?) -> Double {
    recall(at: now, by: FSRS(weights: weights ?? FSRS.defaultWeights))
  }
}

extension Decks.LoggedReview {
  /// Why this review of a card's history cannot be used; nil when it can.
  public var problem: String? {
    guard FSRS.Rating(rawValue: rating) != nil else { return "rating \(rating) is not 1 (again) to 4 (easy)" }
    if let problem = Day.problem(milliseconds: at) { return "review time \(problem)" }
    return nil
  }
}

extension Decks {
  /// Why `weights`, a deck's fitted FSRS weights as saved, cannot be used; nil when they can.
  public static func problem(withWeights weights: [Double]) -> String? {
    let (low, high) = (FSRSOptimizer.lowerBounds, FSRSOptimizer.upperBounds)
    guard weights.count == low.count else { return "\(weights.count) numbers, not FSRS's \(low.count)" }
    for (i, weight) in weights.enumerated() where !(low[i]...high[i]).contains(weight) {
      return "weight \(i + 1) is \(weight), not from \(low[i]) to \(high[i])"
    }
    return nil
  }
}

/// What a command found it cannot use in what the decks keep: one warning per deck and kind
/// of value, naming the first and counting the rest.
struct DeckProblems {
  enum Kind: Equatable {
    case schedule, review, weights
  }

  private var found: [(deck: String, kind: Kind, count: Int, first: String)] = []

  var isEmpty: Bool { found.isEmpty }

  mutating func add(_ kind: Kind, deck: String, _ reason: String) {
    if let i = found.firstIndex(where: { $0.deck == deck && $0.kind == kind }) {
      found[i].count += 1
    } else {
      found.append((deck, kind, 1, reason))
    }
  }

  var outputs: [Output] {
    found.map { deck, kind, count, first in
      let one = count == 1
      let what =
        switch kind {
        case .schedule: one ? "a card's saved schedule" : "\(count.grouped) cards' saved schedules"
        case .review: one ? "a saved review" : "\(count.grouped) saved reviews"
        case .weights: "its fitted FSRS weights"
        }
      let so =
        switch kind {
        case .schedule: "treated as new; the next grade saves a new schedule"
        case .review: "left out of the history"
        case .weights: "its reviews use the defaults; cards \(deck) optimize fits them again"
        }
      return .warning(
        "\(deck): \(what) cannot be used (\(one ? "" : "the first: ")\(first)), so "
          + (kind == .weights ? "" : one ? "it is " : "they are ") + so)
    }
  }
}

extension CardsCommand {
  /// A deck's cards in one direction, as saved, each schedule checked: a card whose schedule
  /// cannot be used is treated as new from `now`, and `problems` says so.
  static func savedCards(
    _ deck: String, reverse: Bool, in state: SessionState, problems: inout DeckProblems
  ) throws(StoreError) -> [Decks.Card] {
    let now = state.clock.nowMilliseconds()
    return try state.load(Decks.Cards(profile: state.profile, deck: deck, reverse: reverse)).map { card in
      guard let reason = card.schedule.problem else { return card }
      problems.add(.schedule, deck: deck, "\(Diagnostic.quoted(shortened(card.question, 30))): \(reason)")
      var card = card
      card.schedule = .new(at: now)
      return card
    }
  }

  /// Every review of a deck (or of every deck) as saved, oldest first, without those that
  /// cannot be used (`problems` says which).
  static func savedReviews(
    of deck: String?, in state: SessionState, problems: inout DeckProblems
  ) throws(StoreError) -> [Decks.LoggedReview] {
    try state.load(Decks.ReviewLog(profile: state.profile, deck: deck)).filter { review in
      guard let reason = review.problem else { return true }
      problems.add(.review, deck: review.key.deck, reason)
      return false
    }
  }
}
