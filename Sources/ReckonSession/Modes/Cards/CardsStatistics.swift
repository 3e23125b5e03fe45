import ReckonCore

/// `stats cards`: reviews a day over 30 days, what falls due over the next 14, the true
/// retention against the target, and the hardest cards.
enum CardsStatistics {
  static let chartDays = 30
  static let forecastDays = 14

  static let topic = StatisticsTopic(
    name: "cards", aliases: ["flashcards", "decks"],
    help: """
      stats cards, for the current profile: your decks' cards (new, learning, in
      review); reviews a day over the last 30 days, with how many were recalled
      (not "again"); how many cards fall due on each of the next 14 days; the
      true retention (of the last 30 days' reviews of cards last seen on an
      earlier day, the share recalled) against the target (set retention); and
      the hardest cards, those least likely to be recalled now.
      """
  ) { report(for: $0) }

  static func report(for state: SessionState) -> [Output] {
    let now = state.clock.nowMilliseconds()
    let today = state.clock.day(atMilliseconds: now)
    var cards: [Decks.Card] = []
    let reviews: [Decks.LoggedReview]
    // What cannot be used is left out, and said first.
    var problems = DeckProblems()
    do {
      let decks = try state.load(Decks.All(profile: state.profile, dueBefore: 0))
      guard !decks.isEmpty else { return [.note("No decks yet. Add one: cards load FILE.")] }
      for deck in decks { cards += try CardsCommand.cards(of: deck.deck, in: state, problems: &problems) }
      reviews = try CardsCommand.savedReviews(of: nil, in: state, problems: &problems)
    } catch {
      return [.warning("the decks could not be read: \(error.message)")]
    }
    let reviewed = cards.filter { $0.schedule.reviews > 0 }
    let inReview = reviewed.filter { $0.schedule.phase == FSRS.Phase.review.rawValue }.count
    var outputs: [Output] = [
      .note(
        "Flashcards for \(state.profile): \(Wording.count(cards.count, "card")) (each way), "
          + "\(cards.count - reviewed.count) new, \(reviewed.count - inReview) learning, \(inReview) in review; "
          + "\(Wording.count(reviews.count, "review")) in all.")
    ]

    // Reviews a day, and how many were recalled.
    var byDay: [Int: (all: Int, recalled: Int)] = [:]
    for review in reviews {
      let day = state.clock.day(atMilliseconds: review.at).number
      guard day > today.number - chartDays else { continue }
      byDay[day, default: (0, 0)].all += 1
      if review.rating > 1 { byDay[day, default: (0, 0)].recalled += 1 }
    }
    outputs.append(.note("Last \(chartDays) days (reviews a day, and the share recalled):"))
    outputs.append(
      .chart(
        (0..<chartDays).reversed().map { back in
          let day = today.advanced(by: -back)
          let counts = byDay[day.number] ?? (0, 0)
          let text =
            counts.all == 0 ? "–" : "\(counts.all.grouped)  \(Wording.percent(counts.recalled, of: counts.all))"
          return ChartBar(label: day.shortLabel, value: counts.all, text: text)
        }))

    // What falls due: a card overdue, or in its steps, counts for today.
    var due = [Int](repeating: 0, count: forecastDays)
    for card in reviewed {
      let day = max(state.clock.day(atMilliseconds: card.schedule.due).number, today.number) - today.number
      if day < forecastDays { due[day] += 1 }
    }
    outputs.append(.note("Due over the next \(forecastDays) days (each way counts):"))
    outputs.append(
      .chart(
        due.enumerated().map { offset, count in
          ChartBar(
            label: today.advanced(by: offset).shortLabel, value: count, text: count == 0 ? "–" : count.grouped)
        }))

    outputs.append(.note(trueRetention(reviews, state: state, today: today)))

    // The hardest: least likely to be recalled now, then the most often forgotten.
    // Each deck's scheduler: its own fitted weights, if any.
    var schedulers: [String: FSRS] = [:]
    for deck in Set(reviewed.map(\.key.deck)).sorted() {
      schedulers[deck] = CardsCommand.scheduler(deck, in: state, problems: &problems)
    }
    // Only cards with something to say: one likely forgotten by now, or forgotten before.
    let hardest = reviewed.map { card in
      (card: card, recall: card.schedule.recall(at: now, by: schedulers[card.key.deck]!))
    }.filter { $0.recall < 0.995 || $0.card.schedule.lapses > 0 }
      .sorted { ($0.recall, -$0.card.schedule.lapses) < ($1.recall, -$1.card.schedule.lapses) }.prefix(5)
    if hardest.isEmpty {
      outputs.append(.note("Hardest now: none yet (every card reviewed is fresh, and none was forgotten)."))
    } else {
      outputs.append(.note("Hardest now:"))
      outputs.append(
        .table(
          [["deck", "question", "answer", "recall", "lapses"]]
            + hardest.map { item in
              [
                item.card.key.deck, CardsCommand.shortened(item.card.question, 36),
                CardsCommand.shortened(item.card.answer, 20),
                "\(Int((item.recall * 100).rounded()))%", "\(item.card.schedule.lapses)",
              ]
            }))
    }
    return problems.outputs + outputs
  }

  /// Of the last 30 days' reviews of a card last reviewed on an earlier day, the share not
  /// "again", against the target retention.
  static func trueRetention(_ reviews: [Decks.LoggedReview], state: SessionState, today: Day) -> String {
    var lastDay: [String: Int] = [:]
    var counted = 0
    var recalled = 0
    for review in reviews {
      let id = review.key.id
      let day = state.clock.day(atMilliseconds: review.at).number
      if let last = lastDay[id], last < day, day > today.number - chartDays {
        counted += 1
        if review.rating > 1 { recalled += 1 }
      }
      lastDay[id] = day
    }
    let target = "\(Int((state.settings.retention * 100).rounded()))%"
    guard counted > 0 else {
      return "True retention: no card has come back on a later day yet (the target is \(target))."
    }
    return "True retention over \(chartDays) days: \(Wording.percent(recalled, of: counted)) of "
      + "\(Wording.count(counted, "review")) of cards seen on an earlier day were recalled (the target is \(target))."
  }
}
