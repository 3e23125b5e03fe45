import ReckonCore

/// `cards DECK optimize`: FSRS's 21 weights fitted to the deck's own reviews
/// (`FSRSOptimizer`), kept for the deck and used by its reviews from then on; with too few
/// reviews, the defaults stay and the reply says how many more it needs.
enum CardsOptimization {
  static func run(_ deck: String, in state: inout SessionState) -> Reply {
    // Reviews and weights that cannot be used are left out, and said first.
    var problems = DeckProblems()
    let reply = fit(deck, in: &state, problems: &problems)
    return Reply(problems.outputs + reply.outputs)
  }

  private static func fit(_ deck: String, in state: inout SessionState, problems: inout DeckProblems) -> Reply {
    let reviews: [Decks.LoggedReview]
    do {
      reviews = try CardsCommand.savedReviews(of: deck, in: state, problems: &problems)
    } catch {
      return Reply([.warning("the deck's reviews could not be read: \(error.message)")])
    }
    // Each card's reviews, in the order they were given.
    var byCard: [[FSRSOptimizer.Review]] = []
    var index: [String: Int] = [:]
    for review in reviews {
      let id = review.key.id
      if index[id] == nil {
        index[id] = byCard.count
        byCard.append([])
      }
      byCard[index[id]!].append(FSRSOptimizer.Review(at: review.at, rating: review.rating))
    }
    let optimizer = FSRSOptimizer(cards: byCard)
    let counted = optimizer.counted
    let needed = FSRSOptimizer.batchSize
    guard counted >= needed else {
      return Reply([
        .note(
          "\(deck) has \(Wording.count(counted, "review")) of a card seen on an earlier day; fitting FSRS to a deck "
            + "needs \(needed) (as FSRS's own optimizer does). Until then its reviews use FSRS's default weights, "
            + "fitted to many people's reviews.")
      ])
    }
    let interruption = state.interruption
    guard let fit = optimizer.fit(random: &state.random, stop: { interruption.isRequested }) else {
      return Reply([.note("Stopped (Ctrl-C): \(deck) keeps the weights it had.")])
    }
    let current = CardsCommand.weights(deck, in: state, problems: &problems)
    let currentLoss = current.map(optimizer.loss)
    let figures = "log loss \(format(fit.loss)), against \(format(fit.defaultLoss)) with the defaults"
    guard fit.loss < min(fit.defaultLoss, currentLoss ?? .infinity) else {
      return Reply([
        .note(
          "Fitted to \(Wording.count(counted, "review")) of \(Wording.count(byCard.count, "card")): \(figures)"
            + (currentLoss.map { " and \(format($0)) with the weights it has" } ?? "")
            + ". That is no better: \(deck) keeps the weights it had.")
      ])
    }
    guard
      state.save(
        Decks.SaveWeights(
          profile: state.profile, deck: deck, weights: fit.weights, reviews: counted, logLoss: fit.loss,
          at: state.clock.nowMilliseconds()), failure: "the fitted weights are not saved") != nil
    else { return Reply([.warning("the fitted weights could not be saved; \(deck) keeps the weights it had")]) }
    return Reply([
      .note(
        "Fitted FSRS to \(Wording.count(counted, "review")) of \(Wording.count(byCard.count, "card")) in \(deck): "
          + "\(figures) (lower predicts recall better). \(deck)'s reviews use them from now on.")
    ])
  }

  /// A loss to four decimals: 0.3489.
  static func format(_ loss: Double) -> String {
    let tenThousandths = Int((loss * 10_000).rounded())
    let decimals = String(tenThousandths % 10_000)
    return "\(tenThousandths / 10_000)." + String(repeating: "0", count: 4 - decimals.count) + decimals
  }
}
