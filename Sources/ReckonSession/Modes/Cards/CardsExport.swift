import ReckonCore

/// `cards export DECK`: the deck as Anki's "Notes in Plain Text", which Anki imports (File >
/// Import) and `cards load` reads back: a note a row (its id, note type, deck, front, back
/// and tags; a cloze note's text with its deletions), and after each note its cards'
/// schedules on comment lines (`#reckon card:`), which Anki passes over and `cards load`
/// gives to cards it does not have yet, so a deck moves to another profile or machine with
/// its history.
///
/// It is printed (`reckon -e 'cards export Spanish' > spanish.txt`), comma-separated: the
/// terminal shows a tab as `\t`, never as itself.
public enum CardsExport {
  public static let scheduleMark = "#reckon card:"

  static func text(of cards: [Decks.Card]) -> String {
    var out = """
      #separator:comma
      #html:false
      #guid column:1
      #notetype column:2
      #deck column:3
      #tags column:6

      """
    var notes: [String] = []
    var byNote: [String: [Decks.Card]] = [:]
    for card in cards {
      if byNote[card.key.note] == nil { notes.append(card.key.note) }
      byNote[card.key.note, default: []].append(card)
    }
    for note in notes {
      let group = byNote[note]!.sorted {
        ($0.key.ordinal, $0.key.reverse ? 1 : 0) < ($1.key.ordinal, $1.key.reverse ? 1 : 0)
      }
      let first = group[0]
      let fields =
        if let cloze = first.cloze {
          [note, "Cloze", first.key.deck, cloze, "", first.tags]
        } else {
          [note, "Basic (and reversed card)", first.key.deck, first.question, first.answer, first.tags]
        }
      out += fields.map(quoted).joined(separator: ",") + "\n"
      for card in group {
        let s = card.schedule
        let values: [String] = [
          "\(card.key.ordinal)", card.key.reverse ? "1" : "0", "\(s.phase)", s.step.map { "\($0)" } ?? "-",
          s.stability.map { "\($0)" } ?? "-", s.difficulty.map { "\($0)" } ?? "-", "\(s.due)",
          s.lastReview.map { "\($0)" } ?? "-", "\(s.reviews)", "\(s.lapses)",
        ]
        out += scheduleMark + " " + values.joined(separator: " ") + "\n"
      }
    }
    return out
  }

  /// A field as CSV writes it: in quotes, with its quotes doubled, when it holds a comma, a
  /// quote or a line break, or starts with `#` (which would make its line a comment).
  static func quoted(_ field: String) -> String {
    guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) || field.hasPrefix("#")
    else { return field }
    return "\"" + field.map { $0 == "\"" ? "\"\"" : String($0) }.joined() + "\""
  }

  /// A `#reckon card:` line read back.
  public enum ScheduleLine: Sendable {
    /// Which card of its note, and its schedule.
    case card(ordinal: Int, reverse: Bool, schedule: Decks.Schedule)
    /// A schedule line that cannot be used, and why (its card starts new).
    case refused(String)
  }

  /// The schedule a `#reckon card:` line gives (`ordinal direction phase step stability
  /// difficulty due lastReview reviews lapses`, "-" for none), or why it cannot be used: a
  /// value that does not read, or a schedule FSRS could not have made
  /// (`Decks.Schedule.problem`); nil for a line that is not one (Anki passes it over).
  public static func schedule(_ line: String) -> ScheduleLine? {
    guard line.hasPrefix(scheduleMark) else { return nil }
    let v = line.dropFirst(scheduleMark.count).split(separator: " ").map(String.init)
    guard v.count == 10 else {
      return .refused(
        "a schedule line has 10 values (card, direction, phase, step, stability, difficulty, due time, last "
          + "review, reviews, lapses), not \(v.count)")
    }
    let names = [
      "card", "direction", "phase", "step", "stability", "difficulty", "due time", "last review", "reviews", "lapses",
    ]
    /// The value at `i`: "-" is none (.some(nil)); one that does not read is .none.
    func value<T: LosslessStringConvertible>(_ i: Int, _: T.Type, optional: Bool = true) -> T?? {
      if optional && v[i] == "-" { return .some(nil) }
      return T(v[i]).map { .some($0) } ?? .none
    }
    func unreadable(_ i: Int) -> ScheduleLine {
      .refused("the \(names[i]) \(Diagnostic.quoted(v[i])) is not \(i == 4 || i == 5 ? "a number" : "a whole number")")
    }
    guard case .some(let ordinal?) = value(0, Int.self, optional: false) else { return unreadable(0) }
    guard (1...500).contains(ordinal) else { return .refused("the card \(ordinal) is not a card's number (1 to 500)") }
    guard v[1] == "0" || v[1] == "1" else {
      return .refused("the direction \(Diagnostic.quoted(v[1])) is not 0 (front to back) or 1 (back to front)")
    }
    guard case .some(let phase?) = value(2, Int.self, optional: false) else { return unreadable(2) }
    guard case .some(let step) = value(3, Int.self) else { return unreadable(3) }
    guard case .some(let stability) = value(4, Double.self) else { return unreadable(4) }
    guard case .some(let difficulty) = value(5, Double.self) else { return unreadable(5) }
    // (Times read as Int, which is Int64 here: one integer reader in the binary, not two.)
    guard case .some(let due?) = value(6, Int.self, optional: false) else { return unreadable(6) }
    guard case .some(let lastReview) = value(7, Int.self) else { return unreadable(7) }
    guard case .some(let reviews?) = value(8, Int.self, optional: false) else { return unreadable(8) }
    guard case .some(let lapses?) = value(9, Int.self, optional: false) else { return unreadable(9) }
    let schedule = Decks.Schedule(
      phase: phase, step: step, stability: stability, difficulty: difficulty, due: Int64(due),
      lastReview: lastReview.map(Int64.init), reviews: reviews, lapses: lapses)
    // A schedule FSRS could have made, in the calendar's years.
    if let problem = schedule.problem { return .refused(problem) }
    return .card(ordinal: ordinal, reverse: v[1] == "1", schedule: schedule)
  }
}
