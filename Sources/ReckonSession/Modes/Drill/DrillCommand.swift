import ReckonCore

/// `drill [options]`: the options given, over the last ones used, start a drill (and are
/// saved as the profile's defaults). `drill review` and `drill weak` ask facts from the store.
struct DrillCommand: Command {
  static let help = CommandHelp(
    name: "drill", usage: "drill [tables] [options]", summary: "times-table flashcards",
    details: """
      drill            the drill you did last (at first: tables 2–9, × up to 12,
                       in order, until you quit)
      drill 7          the 7 table;  drill 2-12  tables 2 to 12;  drill all  2–9
      drill 7 8        the 7 and 8 tables (also drill 7,8 or drill 7 and 8);
                       drill 3-5,8  tables 3 to 5 and 8
      max N            the largest second number (at first 12)
      random | order   shuffled (every fact once before any comes again) or in order
      count N          a round of N questions;  endless  until you quit
      + | - | ÷ | ×    add, subtract, divide (range N: up to N) or multiply
      drill review     the facts due for review, weakest first
      drill weak       the ten facts you know least
      The tables on one line are the list drilled. Options you leave out are kept
      from your last drill: drill 7 after drill 2-12 random count 20 asks the
      7 table at random, 20 questions.
      Type the answer; Enter alone shows it (not scored); skip; stats; quit ends
      with a summary. A missed fact comes back 3 to 5 questions later until you
      get it right. Every answer is saved to your profile as you give it.
      Facts move through five Leitner boxes: a right answer on a fact that is due
      moves it up a box (due again 1, 3, 7, then 14 days later); a wrong answer,
      or showing the answer, sends it back to box 1. The weakest facts are those
      missed most for their answers (a shown answer counts as missed).
      """, readsSettings: true)

  static func completions(after words: [Substring], in state: SessionState) -> [String]? {
    (words.isEmpty ? ["review", "weak"] : []) + ["all", "random", "order", "max", "count", "endless"]
  }

  enum Kind: Sendable {
    /// Options over the last ones.
    case tables(DrillOptions.Changes)
    /// `drill review`: the facts due; `drill weak`: the ten known least.
    case list(String)
  }

  let kind: Kind

  init(parsing arguments: Arguments, in state: SessionState) throws(Diagnostic) {
    let words = arguments.words
    if let first = words.first, ["review", "weak"].contains(first.lowercased) {
      if words.count > 1 {
        throw Diagnostic(
          "drill \(first.lowercased) takes nothing after it", at: words[1].span,
          hint: "drill review asks the facts that are due; drill weak the ten you know least")
      }
      kind = .list(first.lowercased)
      return
    }
    do {
      kind = .tables(try DrillOptions.Changes(parsing: words.map(\.text)))
    } catch {
      let span = error.wordIndex < words.count ? words[error.wordIndex].span : arguments.rest(from: arguments.start)
      throw Diagnostic(
        error.message, at: span, hint: "for example: drill 7, drill 2-12 random count 20, drill + range 20")
    }
  }

  func run(in state: inout SessionState) -> ModeStep {
    switch kind {
    case .list(let name): return DrillCommand.startList(name, in: &state)
    case .tables(let changes):
      let options = state.settings.drill.applying(changes)
      state.prepareStore()
      if options != state.settings.drill {
        state.settings.drill = options
        state.saveSetting("drill", what: "these drill options could not be saved as your defaults")
      }
      let drill = DrillMode(options: options, state: &state)
      return .enter(drill, Reply(drill.opening(profile: state.profile)))
    }
  }

  /// `drill review` (the facts due, weakest first) or `drill weak` (the ten known least).
  static func startList(_ name: String, in state: inout SessionState) -> ModeStep {
    guard let store = state.store else {
      return .stay(Reply([.note("Progress is not being saved in this session, so there is nothing to \(name).")]))
    }
    let facts: [Fact]
    let practised: Bool
    do {
      let states = try store.read(Answers.FactStates(profile: state.profile, mode: DrillMode.storeMode))
      practised = !states.isEmpty
      let totals = try store.read(Answers.Totals(profile: state.profile, mode: DrillMode.storeMode))
      if name == "review" {
        facts = FactSelection.due(states, totals: totals, now: state.clock.nowMilliseconds())
      } else {
        facts = FactSelection.weakest(states, totals: totals, limit: 10)
      }
    } catch {
      return .stay(Reply([.warning("saved progress could not be read: \(error.message)")]))
    }
    // (What opening the store found, a damaged file say, comes first: `Session` adds it.)
    guard !facts.isEmpty else {
      let why =
        practised
        ? "Nothing is due for review for \(state.profile) just now: every fact practised waits in its box until later."
        : "\(state.profile) has not practised any facts yet. Start with: drill"
      return .stay(Reply([.note(why)]))
    }
    state.prepareStore()
    let drill = DrillMode(options: state.settings.drill, round: .list(name: name, facts: facts), state: &state)
    return .enter(drill, Reply(drill.opening(profile: state.profile)))
  }
}

/// The drill's part in the calculator: `drill`, and `stats drill` (also `stats` alone).
enum DrillFeature: Feature {
  static let commands: [any Command.Type] = [DrillCommand.self]
  static let settings = [DrillOptions.setting]
  static let statistics = [
    StatisticsTopic(
      name: "drill",
      help: """
        stats (or stats drill), for the current profile: answers and accuracy; a
        2–12 times-table grid of how well each fact is known (● known, ◐ getting
        there, ○ learning, · not practised; in colour on a terminal); answers a
        day over the last 14 days; the streak of days practised; the weakest
        facts; and how many are due for review. Also works inside a drill.
        """
    ) { Statistics.report(for: $0) }
  ]
}
