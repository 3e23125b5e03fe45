/// `cards DECK delete`: asks first, saying what would go (its cards and every review of
/// them), and deletes only on `yes`. Anything else keeps the deck, and so does the end of
/// input.
struct CardsDeletion: Mode {
  let deck: String
  /// Its cards as `cards` counts them (a card a note, or a cloze; not each way).
  let cards: Int

  func prompt(at now: Int64) -> String { "delete \(deck)? yes/no> " }

  static func start(_ deck: String, in state: SessionState) -> ModeStep {
    let decks: [Decks.Summary]
    let reviews: Int
    do {
      decks = try state.load(Decks.All(profile: state.profile, dueBefore: 0))
      reviews = try state.load(Decks.ReviewLog(profile: state.profile, deck: deck)).count
    } catch {
      return .stay(Reply([.warning("the decks could not be read: \(error.message)")]))
    }
    guard let summary = decks.first(where: { $0.deck == deck }) else {
      return .stay(Reply([.warning("no deck called \(deck): cards lists your decks")]))
    }
    let history = reviews == 0 ? "never reviewed" : Wording.count(reviews, "review")
    return .enter(
      CardsDeletion(deck: deck, cards: summary.cards),
      Reply([
        .note(
          "Delete \(deck): \(Wording.count(summary.cards, "card")), \(history)? It cannot be undone "
            + "(its file can be loaded again, as new cards). Type yes to delete it.")
      ]))
  }

  mutating func handle(_ line: String, in state: inout SessionState) -> ModeStep {
    switch line.trimmingSpaces.lowercased() {
    case "yes", "y":
      guard let gone = state.save(Decks.Delete(profile: state.profile, deck: deck), failure: "the deck is not deleted")
      else { return .leave(Reply([.warning("\(deck) could not be deleted; it is as it was")])) }
      return .leave(
        Reply([
          .note(
            "Deleted \(deck): \(Wording.count(cards, "card")) and \(Wording.count(gone.reviews, "review")).")
        ]))
    case "no", "n", "", "quit", "cancel":
      return .leave(Reply([.note("Kept \(deck).")]))
    default:
      return .stay(Reply([.note("Type yes to delete \(deck), or no to keep it.")]))
    }
  }

  mutating func finish(in state: inout SessionState) -> Reply { Reply([.note("Kept \(deck).")]) }

  func completions(isFirstWord: Bool, before: String, state: SessionState) -> [String] { ["yes", "no"] }
}
