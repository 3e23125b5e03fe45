/// `cards export DECK`: the deck as Anki's "Notes in Plain Text", which Anki imports (File >
/// Import) and `cards load` reads back: a note a row (its id, note type, deck, front, back
/// and tags; a cloze note's text with its deletions), and after each note its cards'
/// schedules on comment lines (`#reckon card:`), which Anki passes over and `cards load`
/// gives to cards it does not have yet, so a deck moves to another profile or machine with
/// its history.
///
/// It is printed (`reckon -e 'cards export Spanish' > spanish.txt`), comma-separated: the
/// terminal shows a tab as `\t`, never as itself.
enum CardsExport {
  static let scheduleMark = "#reckon card:"

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

  /// A `#reckon card:` line read back: which card of its note, and its schedule; nil for a
  /// line that does not read as one (it is passed over, as Anki passes it over).
  static func schedule(_ line: String) -> (ordinal: Int, reverse: Bool, schedule: Decks.Schedule)? {
    guard line.hasPrefix(scheduleMark) else { return nil }
    let v = line.dropFirst(scheduleMark.count).split(separator: " ").map(String.init)
    guard v.count == 10, let ordinal = Int(v[0]), (1...500).contains(ordinal), v[1] == "0" || v[1] == "1",
      let phase = Int(v[2]), FSRS.Phase(rawValue: phase) != nil, let due = Int64(v[6]), let reviews = Int(v[8]),
      let lapses = Int(v[9]), reviews >= 0, lapses >= 0, lapses <= reviews
    else { return nil }
    /// "-" is none (.some(nil)); a value that does not read is .none.
    func optional<T: LosslessStringConvertible>(_ text: String) -> T?? {
      if text == "-" { return .some(nil) }
      guard let value = T(text) else { return .none }
      return .some(value)
    }
    guard case .some(let step) = optional(v[3]) as Int??, case .some(let stability) = optional(v[4]) as Double??,
      case .some(let difficulty) = optional(v[5]) as Double??, case .some(let lastReview) = optional(v[7]) as Int64??
    else { return nil }
    // A schedule FSRS could have made: a reviewed card has a memory state and a last review.
    if reviews > 0 {
      guard let stability, let difficulty, lastReview != nil, stability > 0, stability.isFinite,
        (1...10).contains(difficulty)
      else { return nil }
    }
    return (
      ordinal, v[1] == "1",
      Decks.Schedule(
        phase: phase, step: step, stability: stability, difficulty: difficulty, due: due, lastReview: lastReview,
        reviews: reviews, lapses: lapses)
    )
  }
}
