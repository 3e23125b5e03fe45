import ReckonCore

/// `cards`, `cards load FILE`, `cards DECK [new N] [reverse]`, `cards DECK browse|delete|
/// optimize`, `cards export DECK`: flashcard decks scheduled by FSRS.
struct CardsCommand: Command {
  static let help = CommandHelp(
    name: "cards", usage: "cards [DECK | load FILE]", summary: "flashcard decks, scheduled by FSRS",
    details: """
      cards                your decks, with their new, learning and due cards
      cards load FILE      add a deck (or update it): an Anki package (.apkg),
                           Anki's "Notes in Plain Text" export, CSV
                           front,back[,tags], or Markdown Q:/A: pairs
      cards DECK           review what is due, and up to 20 new cards
      cards DECK new 50    with up to 50 new cards
      cards DECK reverse   ask back to front
      cards DECK browse    every card: its state, when due, how well it is known
      cards DECK delete    delete a deck and its history (asks first)
      cards DECK optimize  fit FSRS's weights to the deck's own reviews (once it
                           has 512 reviews of cards seen on an earlier day)
      cards export DECK    print the deck as Anki's plain text, with each card's
                           schedule (Anki imports it; so does cards load)
      Type the answer, or press Enter to see it and grade yourself (1 again,
      2 hard, 3 good, 4 easy). Every grade is saved as it is given; undo takes
      it back. set retention 0.9 sets the chance of recall the reviews aim for;
      stats cards shows reviews a day, what falls due, the true retention and
      the hardest cards.
      """, readsSettings: true)

  enum Action {
    case list
    case load(String, place: SourceSpan)
    case review(deck: String, new: Int, reverse: Bool)
    case browse(deck: String)
    case delete(deck: String)
    case export(deck: String)
    case optimize(deck: String)
  }

  let action: Action
  /// Whether the deck the action names is one of the profile's (its name as saved, found
  /// whatever its case when the command was read).
  let deckIsSaved: Bool

  static func completions(after words: [Substring], in state: SessionState) -> [String]? {
    guard let first = words.first else { return ["load", "export"] + deckNames(in: state) }
    if first == "export" { return words.count == 1 ? deckNames(in: state) : [] }
    if first == "load" { return [] }
    return words.count == 1 ? ["new", "reverse", "browse", "delete", "optimize"] : []
  }

  init(parsing arguments: Arguments, in state: SessionState) throws(Diagnostic) {
    let words = arguments.words
    guard let first = words.first else {
      action = .list
      deckIsSaved = true
      return
    }
    let saved = CardsCommand.deckNames(in: state)
    /// The deck as saved that `typed` names, in any case.
    func savedName(_ typed: String) -> String? { saved.first { $0.lowercased() == typed.lowercased() } }
    if first.lowercased == "export" {
      guard words.count >= 2 else {
        throw Diagnostic(
          "cards export needs a deck", at: first.span, hint: "for example: cards export Capitals > capitals.txt")
      }
      let typed = words.dropFirst().map(\.text).joined(separator: " ")
      action = .export(deck: savedName(typed) ?? typed)
      deckIsSaved = savedName(typed) != nil
      return
    }
    if first.lowercased == "load" {
      guard words.count >= 2 else {
        throw Diagnostic("cards load needs a file", at: first.span, hint: "for example: cards load capitals.txt")
      }
      // The rest of the line is the path (it may hold spaces).
      let start = words[1].span.start
      action = .load(
        String(String.UnicodeScalarView(Array(arguments.line.unicodeScalars)[start...])).trimmingSpaces,
        place: arguments.rest(from: start))
      deckIsSaved = true
      return
    }
    // A deck's name may be several words (Anki's "Country Capitals"): the longest run of
    // words from the first that names a deck, else the first word.
    var (deck, index, isSaved) = (first.text, 1, false)
    for count in stride(from: words.count, through: 1, by: -1) {
      if let name = savedName(words[0..<count].map(\.text).joined(separator: " ")) {
        (deck, index, isSaved) = (name, count, true)
        break
      }
    }
    deckIsSaved = isSaved
    if words.count == index + 1, words[index].lowercased == "browse" {
      action = .browse(deck: deck)
      return
    }
    if words.count == index + 1, words[index].lowercased == "delete" {
      action = .delete(deck: deck)
      return
    }
    if words.count == index + 1, words[index].lowercased == "optimize" || words[index].lowercased == "optimise" {
      action = .optimize(deck: deck)
      return
    }
    var new = 20
    var reverse = false
    while index < words.count {
      switch words[index].lowercased {
      case "reverse":
        reverse = true
        index += 1
      case "new":
        guard index + 1 < words.count, let n = Int(words[index + 1].text), (0...1000).contains(n) else {
          throw Diagnostic(
            "new takes how many new cards, from 0 to 1,000", at: words[index].span, hint: "cards \(deck) new 50")
        }
        new = n
        index += 2
      default:
        throw Diagnostic(
          "cards \(deck) takes new N, reverse or browse", at: words[index].span,
          hint: "cards \(deck) new 50 reverse")
      }
    }
    action = .review(deck: deck, new: new, reverse: reverse)
  }

  /// `cards export DECK`: the deck as Anki's plain text, with its schedules (a schedule that
  /// cannot be used as the new one it is treated as).
  static func export(_ deck: String, in state: SessionState) -> Reply {
    var problems = DeckProblems()
    do {
      let text = CardsExport.text(of: try cards(of: deck, in: state, problems: &problems))
      return Reply(problems.outputs + [.result(String(text.dropLast()))])
    } catch {
      return Reply([.warning("the deck could not be read: \(error.message)")])
    }
  }

  /// Every card of a deck, front to back and then back to front, each schedule checked.
  static func cards(of deck: String, in state: SessionState, problems: inout DeckProblems) throws(StoreError)
    -> [Decks.Card]
  {
    try savedCards(deck, reverse: false, in: state, problems: &problems)
      + savedCards(deck, reverse: true, in: state, problems: &problems)
  }

  /// A card's text on one line of at most `n` characters, cut with `…`.
  static func shortened(_ text: String, _ n: Int) -> String {
    let line = String(text.map { $0 == "\n" ? " " : $0 })
    return line.count <= n ? line : String(line.prefix(n - 1)) + "…"
  }

  /// The weights `cards DECK optimize` fitted to the deck, if any it can use (`problems` says
  /// when the saved ones cannot be).
  static func weights(_ deck: String, in state: SessionState, problems: inout DeckProblems) -> [Double]? {
    guard let weights = (try? state.load(Decks.Weights(profile: state.profile, deck: deck))) ?? nil else {
      return nil
    }
    if let reason = Decks.problem(withWeights: weights) {
      problems.add(.weights, deck: deck, reason)
      return nil
    }
    return weights
  }

  /// The scheduler for a deck: its fitted weights (or the defaults) and the profile's target
  /// retention.
  static func scheduler(_ deck: String, in state: SessionState, problems: inout DeckProblems) -> FSRS {
    FSRS(
      weights: weights(deck, in: state, problems: &problems) ?? FSRS.defaultWeights,
      desiredRetention: state.settings.retention)
  }

  /// The profile's decks' names (none when they cannot be read).
  static func deckNames(in state: SessionState) -> [String] {
    ((try? state.load(Decks.All(profile: state.profile, dueBefore: 0))) ?? []).map(\.deck)
  }

  func run(in state: inout SessionState) throws(Diagnostic) -> ModeStep {
    switch action {
    case .list: return .stay(CardsCommand.list(in: state))
    case .load(let path, let place):
      switch CardsCommand.load(path, in: &state) {
      case .success(let reply): return .stay(reply)
      case .failure(let failure):
        // A failed load is an error, as every other failed load: a script exits 1.
        throw Diagnostic("nothing loaded from \(path): \(failure.message)", at: place, details: failure.details)
      }
    case .review(let deck, _, _) where !deckIsSaved:
      // A review is what a mistyped name most often meant: say which deck is close.
      let names = CardsCommand.deckNames(in: state)
      let close = names.first { Suggestions.distance($0.lowercased(), deck.lowercased(), atMost: 2) != nil }
      return .stay(
        Reply([
          .warning(
            "no deck called \(deck)"
              + (close.map { ": did you mean \($0)?" } ?? (names.isEmpty ? ": load one with cards load FILE" : "")))
        ]))
    case .browse(let deck), .delete(let deck), .export(let deck), .optimize(let deck):
      guard deckIsSaved else { return .stay(Reply([.warning("no deck called \(deck): cards lists your decks")])) }
      switch action {
      case .browse: return .stay(CardsCommand.browse(deck, in: state))
      case .delete: return CardsDeletion.start(deck, in: state)
      case .export: return .stay(CardsCommand.export(deck, in: state))
      default: return .stay(CardsOptimization.run(deck, in: &state))
      }
    case .review(let deck, let new, let reverse):
      return CardsCommand.review(deck, new: new, reverse: reverse, in: &state)
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
    let rows = decks.map { [$0.deck, $0.cards.grouped, $0.new.grouped, $0.learning.grouped, $0.due.grouped] }
    return Reply([.table([["deck", "cards", "new", "learning", "due"]] + rows), .note("cards DECK reviews one.")])
  }

  /// Reads a deck file and saves its cards in one write: all of it, or nothing (and why not:
  /// the command makes that an error, so a script that loads nothing exits 1). Ctrl-C
  /// (`state.interruption`) stops the reading and the making of the cards, and nothing is
  /// saved; what the cards take is bounded (`cards(of:)`).
  static func load(_ path: String, in state: inout SessionState) -> Result<Reply, SessionState.LoadProblem> {
    let bytes: [UInt8]
    // A package may hold its pictures and sounds too: up to 256 MiB (of which only the
    // collection is read); a text deck up to 64.
    let isPackage = path.lowercased().hasSuffix(".apkg") || path.lowercased().hasSuffix(".colpkg")
    switch state.readFile(path, limit: isPackage ? FileLimits.any : 64 << 20, kind: "a deck") {
    case .success(let read): bytes = read
    case .failure(let problem): return .failure(problem)
    }
    let interruption = state.interruption
    let read: Result<DeckText, FileError>
    if isPackage || bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
      guard let packages = state.packages else {
        return .failure(SessionState.LoadProblem(message: "this session cannot read Anki packages"))
      }
      read = packages.deck(fromPackage: bytes, interruption: interruption)
    } else {
      // Through TextFile, as every reader: a byte-order mark comes off and CRLF becomes LF.
      switch TextFile.decode(bytes) {
      case .success(let text): read = DeckText.read(text, name: path)
      case .failure(let bad):
        return .failure(SessionState.LoadProblem(message: "line \(bad.line) is not UTF-8 (byte \(bad.byte))"))
      }
    }
    var deck: DeckText
    switch read {
    case .success(let read): deck = read
    case .failure(let error) where error == .interrupted: return .failure(interrupted)
    case .failure(let error): return .failure(SessionState.LoadProblem(message: error.message))
    }
    let base = String(path.split(separator: "/").last ?? Substring(path))
    let fileDeck = String(base.prefix { $0 != "." }).trimmingSpaces
    let now = state.clock.nowMilliseconds()
    var refused: [DeckText.Skip] = []
    guard
      let cards = cards(
        of: &deck, deckName: fileDeck.isEmpty ? "deck" : fileDeck, now: now, interruption, refused: &refused)
    else { return .failure(interrupted) }
    state.prepareStore()
    let counts: Decks.LoadCounts
    switch state.saveOnce(Decks.Load(profile: state.profile, cards: cards, at: now, interruption: interruption)) {
    case .success(let saved): counts = saved
    case .failure where interruption.isRequested: return .failure(interrupted)
    case .failure(let error):
      return .failure(SessionState.LoadProblem(message: "the deck could not be saved (\(error.message))"))
    }
    let decks = Set(cards.map(\.key.deck)).sorted()
    var outputs: [Output] =
      deck.skipped.isEmpty ? [] : [.note("Skipped \(Wording.count(deck.skipped.count, deck.format.row)):")]
    outputs += deck.skipped.map { .note("  \(deck.format.row) \($0.line): \($0.reason)") }
    if !refused.isEmpty {
      outputs.append(
        .note("Schedules not used (\(refused.count == 1 ? "its card starts" : "their cards start") as new):"))
      outputs += refused.map { .note("  line \($0.line): \($0.reason)") }
    }
    outputs.append(
      .note(
        "Loaded \(decks.joined(separator: ", ")) (\(deck.format.rawValue)): \(Wording.count(deck.notes.count, "note")); "
          + "cards \(counts.added.grouped) added, \(counts.updated.grouped) updated, \(counts.unchanged.grouped) as they were "
          + "(each note has a card each way but clozes). Review with: cards \(decks[0])"))
    return .success(Reply(outputs))
  }

  /// A load Ctrl-C stopped: nothing of it was loaded.
  static let interrupted = SessionState.LoadProblem(message: "interrupted (Ctrl-C)")

  /// The cards of the deck's notes, to save: a basic note's each way, a cloze note's one per
  /// cloze number, as many as `DeckText.maxNoteBytes` allows (the rest are skipped, and
  /// said); the notes as long as their cards take at most `DeckText.maxDeckBytes` (the notes
  /// after are left out, and said), so that loading a deck adds a bounded amount to the
  /// profile. Schedules a `cards export` wrote go to the cards not here yet; one that cannot be
  /// used is added to `refused` with its line, and its card starts new. Nil when
  /// `interruption` says to stop (it is asked before each note). Notes left out are taken out
  /// of `deck.notes`.
  static func cards(
    of deck: inout DeckText, deckName: String, now: Int64, _ interruption: Interruption,
    refused: inout [DeckText.Skip]
  ) -> [Decks.Card]? {
    var cards: [Decks.Card] = []
    var bytes = 0
    var kept = 0
    for note in deck.notes {
      if interruption.isRequested { return nil }
      let name = note.deck?.isEmpty == false ? note.deck! : deckName
      let key = note.guid ?? "t:" + StableHash.hex(StableHash.of(Folding.key(note.front)))
      var schedules: [(ordinal: Int, reverse: Bool, schedule: Decks.Schedule)] = []
      for comment in note.comments {
        switch CardsExport.schedule(comment.text) {
        case .card(let ordinal, let reverse, let schedule)?: schedules.append((ordinal, reverse, schedule))
        case .refused(let reason)?: refused.append(DeckText.Skip(line: comment.line, reason: reason))
        case nil: break
        }
      }
      let schedule = { (ordinal: Int, reverse: Bool) in
        schedules.last { $0.ordinal == ordinal && $0.reverse == reverse }?.schedule ?? .new(at: now)
      }
      let made = DeckText.cards(of: note)
      let tags = note.tags.joined(separator: " ")
      var ofNote: [Decks.Card] = []
      for card in made.cards {
        ofNote.append(
          Decks.Card(
            key: Decks.Key(deck: name, note: key, ordinal: card.ordinal, reverse: false), question: card.question,
            answer: card.answer, tags: tags, schedule: schedule(card.ordinal, false),
            cloze: note.isCloze ? note.front : nil))
        if !note.isCloze {
          ofNote.append(
            Decks.Card(
              key: Decks.Key(deck: name, note: key, ordinal: card.ordinal, reverse: true), question: card.answer,
              answer: card.question, tags: tags, schedule: schedule(card.ordinal, true)))
        }
      }
      bytes += ofNote.reduce(0) { $0 + $1.storedBytes }
      guard bytes <= DeckText.maxDeckBytes else {
        deck.skip(
          note.line,
          "a deck's cards take at most \(DeckText.maxDeckBytes >> 20) MB in the profile: the notes from here on "
            + "are left out (\(Wording.count(deck.notes.count - kept, "note")))")
        break
      }
      if made.leftOut > 0 {
        deck.skip(
          note.line,
          "\(made.leftOut) of its \(made.leftOut + made.cards.count) cloze cards are left out: a note's cards take "
            + "at most \(DeckText.maxNoteBytes >> 20) MB")
      }
      cards += ofNote
      kept += 1
    }
    deck.notes.removeLast(deck.notes.count - kept)
    return cards
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
    var problems = DeckProblems()
    do {
      cards = try savedCards(deck, reverse: false, in: state, problems: &problems)
    } catch {
      return Reply([.warning("the deck could not be read: \(error.message)")])
    }
    let scheduler = CardsCommand.scheduler(deck, in: state, problems: &problems)
    var rows: [[String]] = [["question", "answer", "state", "due", "reviews", "lapses", "recall"]]
    for card in cards.prefix(1000) {
      let s = card.schedule
      let phase = s.reviews == 0 ? "new" : s.phase == FSRS.Phase.review.rawValue ? "review" : "learning"
      let due =
        s.reviews == 0
        ? "–" : isDue(s, now: now, todayEnds: todayEnds) ? "now" : state.clock.day(atMilliseconds: s.due).iso
      let recall = s.reviews == 0 ? "–" : "\(Int((s.recall(at: now, by: scheduler) * 100).rounded()))%"
      rows.append([
        shortened(card.question, 40), shortened(card.answer, 24), phase, due, "\(s.reviews)", "\(s.lapses)", recall,
      ])
    }
    var outputs: [Output] = problems.outputs + [.table(rows)]
    if cards.count > 1000 { outputs.append(.note("The first 1,000 of \(cards.count.grouped) cards.")) }
    outputs.append(.note("recall: the chance of remembering it now, as FSRS reckons it."))
    return Reply(outputs)
  }

  /// A review of the cards due in `deck` (one of the profile's) and up to `new` new ones.
  static func review(_ deck: String, new: Int, reverse: Bool, in state: inout SessionState) -> ModeStep {
    state.prepareStore()
    let cards: [Decks.Card]
    let now = state.clock.nowMilliseconds()
    let todayEnds = endOfToday(state)
    var problems = DeckProblems()
    do {
      cards = try savedCards(deck, reverse: reverse, in: state, problems: &problems)
    } catch {
      return .stay(Reply([.warning("the deck could not be read: \(error.message)")]))
    }
    let due = cards.filter { CardsCommand.isDue($0.schedule, now: now, todayEnds: todayEnds) }.sorted {
      $0.schedule.due < $1.schedule.due
    }
    let fresh = cards.filter { $0.schedule.reviews == 0 }.prefix(new)
    var mode = CardsMode(deck: deck, queue: due + fresh)
    mode.scheduler = CardsCommand.scheduler(mode.deck, in: state, problems: &problems)
    let intro = Output.note(
      "\(mode.deck)\(reverse ? " (back to front)" : ""): \(Wording.count(due.count, "card")) due, \(fresh.count) new. "
        + "Type the answer, or Enter to see it; undo, help, quit.")
    var outcome = mode.next(in: state)
    outcome.reply.outputs.insert(contentsOf: problems.outputs + [intro], at: 0)
    return outcome.done ? .stay(outcome.reply) : .enter(mode, outcome.reply)
  }
}

extension SessionState {
  /// `reckon --deck FILE`: the deck loaded as `cards load FILE` loads it; `loaded` is false
  /// when nothing of it was (the reply says why).
  public mutating func useDeck(from path: String) -> (reply: Reply, loaded: Bool) {
    switch CardsCommand.load(path, in: &self) {
    case .success(let reply): return (reply, true)
    case .failure(let problem): return (Reply([.warning("\(path): \(problem.message)")]), false)
    }
  }
}

enum CardsFeature: Feature {
  static let commands: [any Command.Type] = [CardsCommand.self]
  static let settings = [CardsSettings.retention]
  static let statistics = [CardsStatistics.topic]
}
