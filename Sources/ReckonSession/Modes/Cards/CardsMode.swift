import ReckonCore

/// Reviewing a deck: each card's front is shown; the answer typed is graded from whether it
/// is right and how long it took, or Enter shows the answer and the user grades it (1 again,
/// 2 hard, 3 good, 4 easy). Each grade moves the card on by FSRS and is saved as it is given;
/// `undo` takes the last one back. A card still in its learning steps comes back in the same
/// sitting.
struct CardsMode: Mode {
  let deck: String
  var queue: [Decks.Card]
  var current: Decks.Card?
  /// The answer is shown and a grade is awaited.
  var revealed = false
  /// When the card was shown (monotonic milliseconds).
  var shownAt: Int64 = 0
  /// The last grade given, for `undo`: the card as it was, and when the review was saved.
  var last: (card: Decks.Card, at: Int64)?
  var reviewed = 0
  var right = 0
  var scheduler = FSRS()

  /// A card back within this much of now comes back in the same sitting.
  static let learnAhead: Int64 = 20 * 60_000

  func prompt(at now: Int64) -> String {
    revealed ? "grade 1-4> " : "cards \(deck) \(queue.count + (current == nil ? 0 : 1)) left> "
  }

  /// Shows the next card, or the summary when there is none.
  mutating func next(in state: SessionState) -> (reply: Reply, done: Bool) {
    guard !queue.isEmpty else {
      current = nil
      let summary =
        reviewed == 0
        ? "Nothing more is due in \(deck) now."
        : "Done: \(Wording.count(reviewed, "card")) reviewed, \(right) answered right."
      return (Reply([.note(summary + " cards lists your decks and what is due.")]), true)
    }
    current = queue.removeFirst()
    revealed = false
    shownAt = state.clock.monotonicMilliseconds()
    return (Reply([.question(current!.question)]), false)
  }

  mutating func handle(_ line: String, in state: inout SessionState) -> ModeStep {
    let typed = line.trimmingSpaces
    let lower = typed.lowercased()
    if lower == "quit" || lower == "done" || lower == "exit" {
      return .leave(Reply([.note("Stopped: \(Wording.count(reviewed, "card")) reviewed. Every grade is saved.")]))
    }
    if lower == "undo" { return .stay(undo(in: &state)) }
    if lower == "help" { return .stay(Reply([.note(CardsMode.help)])) }
    guard let card = current else { return .leave(Reply()) }
    if revealed {
      let rating: FSRS.Rating? =
        switch lower {
        case "1", "again": .again
        case "2", "hard": .hard
        case "3", "good": .good
        case "4", "easy": .easy
        default: nil
        }
      guard let rating else {
        return .stay(Reply([.note("Grade it: 1 again, 2 hard, 3 good, 4 easy (or undo, quit).")]))
      }
      return .after(grade(card, rating, in: &state, feedback: []))
    }
    if typed.isEmpty {
      revealed = true
      return .stay(Reply([.note(card.answer), .note("How well did you know it? 1 again, 2 hard, 3 good, 4 easy")]))
    }
    // A typed answer: right or wrong, and how long it took. The comparison is linear in the
    // answers' length (a near miss is at most two edits: `Suggestions.distance(_:_:atMost:)`),
    // and Ctrl-C while it runs leaves the card ungraded.
    let seconds = (state.clock.monotonicMilliseconds() - shownAt) / 1000
    let (given, expected) = (CardsMode.answerKey(typed), CardsMode.answerKey(card.answer))
    let near =
      expected.count >= 5 && given != expected
      && Suggestions.distance(given, expected, atMost: 2, stop: state.interruption) != nil
    if state.interruption.isRequested {
      return .stay(Reply([.note("Stopped (Ctrl-C): not graded. Type the answer again, or Enter to see it.")]))
    }
    if given == expected {
      let rating: FSRS.Rating = seconds < 5 ? .easy : seconds < 20 ? .good : .hard
      right += 1
      return .after(
        grade(card, rating, in: &state, feedback: [.feedback(correct: true, "✓ \(card.answer)  (\(seconds) s)")]))
    }
    if near {
      right += 1
      return .after(
        grade(
          card, .hard, in: &state,
          feedback: [
            .feedback(
              correct: true, "≈ almost: \(card.answer) (you typed \(Diagnostic.shortened(typed))); counted as hard")
          ]))
    }
    return .after(grade(card, .again, in: &state, feedback: [.feedback(correct: false, "✗ \(card.answer)")]))
  }

  /// Saves the grade and moves on.
  mutating func grade(
    _ card: Decks.Card, _ rating: FSRS.Rating, in state: inout SessionState, feedback: [Output]
  ) -> (reply: Reply, done: Bool) {
    let now = state.clock.nowMilliseconds()
    var random = state.random
    let before = card.schedule
    let after = before.reviewed(rating, at: now, by: scheduler, random: &random)
    state.random = random
    state.save(
      Decks.Review(
        profile: state.profile, key: card.key, rating: rating.rawValue, at: now,
        milliseconds: state.clock.monotonicMilliseconds() - shownAt, before: before, after: after))
    reviewed += 1
    last = (card, now)
    var updated = card
    updated.schedule = after
    if after.phase != FSRS.Phase.review.rawValue, after.due - now <= CardsMode.learnAhead {
      queue.insert(updated, at: min(3, queue.count))
    }
    var outcome = next(in: state)
    outcome.reply.outputs = feedback + [.note(CardsMode.when(after.due, from: now))] + outcome.reply.outputs
    return outcome
  }

  /// `undo`: the last grade taken back, and its card shown again.
  mutating func undo(in state: inout SessionState) -> Reply {
    guard let last else { return Reply([.note("Nothing to undo.")]) }
    state.save(Decks.Undo(profile: state.profile, key: last.card.key, at: last.at, before: last.card.schedule))
    queue.removeAll { $0.key == last.card.key }
    if let current { queue.insert(current, at: 0) }
    current = last.card
    revealed = false
    reviewed -= 1
    self.last = nil
    shownAt = state.clock.monotonicMilliseconds()
    return Reply([.note("Took back the last grade."), .question(last.card.question)])
  }

  /// An answer as it is compared: folded (case and accents), and without the punctuation
  /// at either end (`Lima.` is Lima; `C++` keeps its pluses inside).
  static func answerKey(_ text: String) -> String {
    let ends: Set<Character> = [".", ",", ";", ":", "!", "?", "\"", "'", "“", "”", "‘", "’", "(", ")"]
    var key = Folding.key(text)[...]
    while let last = key.last, ends.contains(last) { key.removeLast() }
    while let first = key.first, ends.contains(first) { key.removeFirst() }
    return Folding.key(key)
  }

  /// When a card comes back: `again in 10 min`, `again in 3 days`.
  static func when(_ due: Int64, from now: Int64) -> String {
    let minutes = max(1, (due - now + 30_000) / 60_000)
    if minutes < 60 * 24 { return "again in \(minutes < 60 ? "\(minutes) min" : "\(minutes / 60) h")" }
    let days = (due - now + FSRS.day / 2) / FSRS.day
    return "again in \(Wording.count(Int(days), "day"))"
  }

  /// The end of input (Ctrl-D) ends the review as quit does.
  mutating func finish(in state: inout SessionState) -> Reply {
    Reply([.note("Stopped: \(Wording.count(reviewed, "card")) reviewed. Every grade is saved.")])
  }

  func completions(isFirstWord: Bool, before: String, state: SessionState) -> [String] {
    revealed ? ["again", "hard", "good", "easy", "undo", "quit"] : ["undo", "quit", "help"]
  }

  static let help = """
    Type the answer (case and accents do not matter), or press Enter to see it and grade
    yourself: 1 again (forgot), 2 hard, 3 good, 4 easy. A right answer typed within 5 s is
    easy, within 20 s good, slower hard; a near miss is hard. undo takes the last grade
    back; quit stops (every grade is saved).
    """
}

extension FSRS.Card {
  init(_ s: Decks.Schedule) {
    self.init(due: s.due)
    phase = FSRS.Phase(rawValue: s.phase) ?? .learning
    step = s.step
    stability = s.stability
    difficulty = s.difficulty
    lastReview = s.lastReview
  }
}

extension Decks.Schedule {
  init(_ card: FSRS.Card, reviews: Int, lapses: Int) {
    self.init(
      phase: card.phase.rawValue, step: card.step, stability: card.stability, difficulty: card.difficulty,
      due: card.due, lastReview: card.lastReview, reviews: reviews, lapses: lapses)
  }

  /// A card never reviewed, due at once.
  static func new(at now: Int64) -> Decks.Schedule {
    Decks.Schedule(
      phase: FSRS.Phase.learning.rawValue, step: 0, stability: nil, difficulty: nil, due: now, lastReview: nil,
      reviews: 0, lapses: 0)
  }
}
