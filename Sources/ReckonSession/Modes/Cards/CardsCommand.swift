import ReckonCore

/// `cards`, `cards load FILE`, `cards DECK [new N] [reverse]`: flashcard decks scheduled by
/// FSRS.
struct CardsCommand: Command {
  static let help = CommandHelp(
    name: "cards", usage: "cards [DECK | load FILE]", summary: "flashcard decks, scheduled by FSRS",
    details: """
      cards                your decks, with their new, learning and due cards
      cards load FILE      add a deck (or update it): Anki's "Notes in Plain Text"
                           export, CSV front,back[,tags], or Markdown Q:/A: pairs
      cards DECK           review what is due, and up to 20 new cards
      cards DECK new 50    with up to 50 new cards
      cards DECK reverse   ask back to front
      cards DECK browse    every card: its state, when due, how well it is known
      Type the answer, or press Enter to see it and grade yourself (1 again, 2 hard,
      3 good, 4 easy). Every grade is saved as it is given; undo takes it back.
      """)

  enum Action {
    case list
    case load(String)
    case review(deck: String, new: Int, reverse: Bool)
    case browse(deck: String)
  }

  let action: Action

  static func completions(after words: [Substring], in state: SessionState) -> [String]? {
    guard words.isEmpty else { return words.count == 1 ? ["new", "reverse"] : [] }
    let decks = (try? state.load(Decks.All(profile: state.profile, dueBefore: CardsCommand.endOfToday(state)))) ?? []
    return ["load"] + decks.map(\.deck)
  }

  init(parsing arguments: Arguments, in state: SessionState) throws(Diagnostic) {
    let words = arguments.words
    guard let first = words.first else {
      action = .list
      return
    }
    if first.lowercased == "load" {
      guard words.count >= 2 else {
        throw Diagnostic("cards load needs a file", at: first.span, hint: "for example: cards load capitals.txt")
      }
      // The rest of the line is the path (it may hold spaces).
      let start = words[1].span.start
      action = .load(String(String.UnicodeScalarView(Array(arguments.line.unicodeScalars)[start...])).trimmingSpaces)
      return
    }
    if words.count == 2, words[1].lowercased == "browse" {
      action = .browse(deck: first.text)
      return
    }
    var new = 20
    var reverse = false
    var index = 1
    while index < words.count {
      switch words[index].lowercased {
      case "reverse":
        reverse = true
        index += 1
      case "new":
        guard index + 1 < words.count, let n = Int(words[index + 1].text), (0...1000).contains(n) else {
          throw Diagnostic(
            "new takes how many new cards, from 0 to 1,000", at: words[index].span, hint: "cards \(first.text) new 50")
        }
        new = n
        index += 2
      default:
        throw Diagnostic(
          "cards \(first.text) takes new N and reverse", at: words[index].span,
          hint: "cards \(first.text) new 50 reverse")
      }
    }
    action = .review(deck: first.text, new: new, reverse: reverse)
  }

  func run(in state: inout SessionState) throws(Diagnostic) -> ModeStep {
    switch action {
    case .list: return .stay(CardsCommand.list(in: state))
    case .load(let path): return .stay(CardsCommand.load(path, in: &state))
    case .review(let deck, let new, let reverse):
      return CardsCommand.review(deck, new: new, reverse: reverse, in: &state)
    case .browse(let deck): return .stay(CardsCommand.browse(deck, in: state))
    }
  }

  static func list(in state: SessionState) -> Reply {
    let decks: [Decks.Summary]
    do {
      decks = try state.load(Decks.All(profile: state.profile, dueBefore: CardsCommand.endOfToday(state)))
    } catch {
      return Reply([.warning("the decks could not be read: \(error.message)")])
    }
    guard !decks.isEmpty else {
      return Reply([.note("No decks yet. Add one: cards load FILE (Anki's plain text export, CSV or Markdown).")])
    }
    let rows = decks.map { ["\($0.deck)", "\($0.cards)", "\($0.new)", "\($0.learning)", "\($0.due)"] }
    return Reply([.table([["deck", "cards", "new", "learning", "due"]] + rows), .note("cards DECK reviews one.")])
  }

  /// Reads a deck file and saves its cards in one write: all of it, or nothing.
  static func load(_ path: String, in state: inout SessionState) -> Reply {
    let bytes: [UInt8]
    switch state.readFile(path, limit: 64 << 20, kind: "a deck") {
    case .success(let read): bytes = read
    case .failure(let problem): return Reply([.warning("\(path): \(problem.message)")])
    }
    let deck: DeckText
    switch DeckText.read(String(decoding: bytes, as: UTF8.self), name: path) {
    case .success(let read): deck = read
    case .failure(let error): return Reply([.warning("\(path): \(error.message)")])
    }
    let base = String(path.split(separator: "/").last ?? Substring(path))
    let fileDeck = String(base.prefix { $0 != "." }).trimmingSpaces
    let now = state.clock.nowMilliseconds()
    var cards: [Decks.Card] = []
    for note in deck.notes {
      let name = (note.deck?.isEmpty == false ? note.deck! : fileDeck.isEmpty ? "deck" : fileDeck)
      let key = note.guid ?? "t:" + StableHash.hex(StableHash.of(Folding.key(note.front)))
      for card in DeckText.cards(of: note) {
        let tags = note.tags.joined(separator: " ")
        cards.append(
          Decks.Card(
            key: Decks.Key(deck: name, note: key, ordinal: card.ordinal, reverse: false), question: card.question,
            answer: card.answer, tags: tags, schedule: .new(at: now)))
        if !note.isCloze {
          cards.append(
            Decks.Card(
              key: Decks.Key(deck: name, note: key, ordinal: card.ordinal, reverse: true), question: card.answer,
              answer: card.question, tags: tags, schedule: .new(at: now)))
        }
      }
    }
    state.prepareStore()
    guard
      let counts = state.save(
        Decks.Load(profile: state.profile, cards: cards, at: now), failure: "the deck is not saved")
    else { return Reply([.warning("\(path): the deck could not be saved; nothing of it was loaded")]) }
    let decks = Set(cards.map(\.key.deck)).sorted()
    var outputs: [Output] = deck.skipped.isEmpty ? [] : [.note("Skipped \(Wording.count(deck.skipped.count, "row")):")]
    outputs += deck.skipped.map { .note("  line \($0.line): \($0.reason)") }
    outputs.append(
      .note(
        "Loaded \(decks.joined(separator: ", ")) (\(deck.format.rawValue)): \(Wording.count(deck.notes.count, "note")); "
          + "cards \(counts.added) added, \(counts.updated) updated, \(counts.unchanged) as they were "
          + "(each note has a card each way but clozes). Review with: cards \(decks[0])"))
    return Reply(outputs)
  }

  /// The first moment of tomorrow, local time: a card in review is due on its day, from the
  /// start of it (as Anki counts), so one due at 18:00 is reviewed with the morning's cards.
  static func endOfToday(_ state: SessionState) -> Int64 {
    let now = state.clock.nowMilliseconds()
    let tomorrow = Int64(state.clock.day(atMilliseconds: now).number + 1) * FSRS.day
    return tomorrow - Int64(state.clock.utcOffsetSeconds(atMilliseconds: now)) * 1000
  }

  /// Whether a card is for today: one in review on or before today (local); one in its
  /// steps when its time has come, or within the learn-ahead limit (20 minutes); a new one is
  /// not "due".
  static func isDue(_ s: Decks.Schedule, now: Int64, todayEnds: Int64) -> Bool {
    guard s.reviews > 0 else { return false }
    if s.phase == FSRS.Phase.review.rawValue { return s.due < todayEnds }
    return s.due <= now + CardsMode.learnAhead
  }

  /// `cards DECK browse`: every card with where it stands.
  static func browse(_ deck: String, in state: SessionState) -> Reply {
    let now = state.clock.nowMilliseconds()
    let todayEnds = endOfToday(state)
    let cards: [Decks.Card]
    do {
      let all = try state.load(Decks.All(profile: state.profile, dueBefore: todayEnds))
      guard let name = all.first(where: { $0.deck.lowercased() == deck.lowercased() })?.deck else {
        return Reply([.warning("no deck called \(deck): cards lists your decks")])
      }
      cards = try state.load(Decks.Cards(profile: state.profile, deck: name, reverse: false))
    } catch {
      return Reply([.warning("the deck could not be read: \(error.message)")])
    }
    let scheduler = FSRS()
    let cut = { (text: String, n: Int) in
      let line = String(text.map { $0 == "\n" ? " " : $0 })
      return line.count <= n ? line : String(line.prefix(n - 1)) + "…"
    }
    var rows: [[String]] = [["question", "answer", "state", "due", "reviews", "lapses", "recall"]]
    for card in cards.prefix(1000) {
      let s = card.schedule
      let phase = s.reviews == 0 ? "new" : s.phase == FSRS.Phase.review.rawValue ? "review" : "learning"
      let due =
        s.reviews == 0
        ? "–" : isDue(s, now: now, todayEnds: todayEnds) ? "now" : state.clock.day(atMilliseconds: s.due).iso
      let recall =
        s.reviews == 0 ? "–" : "\(Int((scheduler.retrievability(FSRS.Card(s), at: now) * 100).rounded()))%"
      rows.append([cut(card.question, 40), cut(card.answer, 24), phase, due, "\(s.reviews)", "\(s.lapses)", recall])
    }
    var outputs: [Output] = [.table(rows)]
    if cards.count > 1000 { outputs.append(.note("The first 1,000 of \(cards.count.grouped) cards.")) }
    outputs.append(.note("recall: the chance of remembering it now, as FSRS reckons it."))
    return Reply(outputs)
  }

  /// A review of the cards due in `deck` and up to `new` new ones.
  static func review(_ deck: String, new: Int, reverse: Bool, in state: inout SessionState) -> ModeStep {
    state.prepareStore()
    let all: [Decks.Summary]
    let cards: [Decks.Card]
    let now = state.clock.nowMilliseconds()
    let todayEnds = endOfToday(state)
    do {
      all = try state.load(Decks.All(profile: state.profile, dueBefore: todayEnds))
      guard let name = all.first(where: { $0.deck.lowercased() == deck.lowercased() })?.deck else {
        let names = all.map(\.deck)
        let close = names.first { Suggestions.distance($0.lowercased(), deck.lowercased()) <= 2 }
        return .stay(
          Reply([
            .warning(
              "no deck called \(deck)"
                + (close.map { ": did you mean \($0)?" } ?? (names.isEmpty ? ": load one with cards load FILE" : "")))
          ]))
      }
      cards = try state.load(Decks.Cards(profile: state.profile, deck: name, reverse: reverse))
    } catch {
      return .stay(Reply([.warning("the deck could not be read: \(error.message)")]))
    }
    let due = cards.filter { CardsCommand.isDue($0.schedule, now: now, todayEnds: todayEnds) }.sorted {
      $0.schedule.due < $1.schedule.due
    }
    let fresh = cards.filter { $0.schedule.reviews == 0 }.prefix(new)
    var mode = CardsMode(deck: cards.first?.key.deck ?? deck, queue: due + fresh)
    let intro = Output.note(
      "\(mode.deck)\(reverse ? " (back to front)" : ""): \(Wording.count(due.count, "card")) due, \(fresh.count) new. "
        + "Type the answer, or Enter to see it; undo, help, quit.")
    var outcome = mode.next(in: state)
    outcome.reply.outputs.insert(intro, at: 0)
    return outcome.done ? .stay(outcome.reply) : .enter(mode, outcome.reply)
  }
}

enum CardsFeature: Feature {
  static let commands: [any Command.Type] = [CardsCommand.self]
}
