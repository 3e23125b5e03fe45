/// The times-table drill: a state machine fed one line at a time. It asks a fact, checks the
/// answer with the session's clock, saves it (and moves the fact between Leitner boxes),
/// brings missed facts back 3–5 questions later until they are answered right, and ends with
/// a summary; the calculator's state is never touched.
public struct DrillMode: Sendable {
  /// Where the questions come from.
  public enum Round: Sendable, Hashable {
    /// Made from the options: tables in order or at random.
    case tables
    /// A fixed list, asked once each (`drill review`, `drill weak`), then the round ends.
    case list(name: String, facts: [Fact])
  }

  /// The name answers are saved under.
  static let storeMode = "drill"

  public private(set) var options: DrillOptions
  public let round: Round
  /// The question on screen and when it appeared (milliseconds, session clock).
  public private(set) var current: Fact
  var shownAt: Int64
  /// How many questions have been shown, the current one included.
  public private(set) var number = 1
  /// Enter alone showed the answer: the question is no longer scored.
  var revealed = false
  /// Ordered mode: where the sequence is.
  var tableIndex = 0
  var operand = 2
  /// Random mode: the facts of this pass not dealt yet, the next one last. Every fact of the
  /// range is dealt once a pass, then the range is shuffled again.
  var deck: [Fact] = []
  /// A list round: how many of its facts have been asked.
  var listIndex = 0
  /// Missed facts waiting to come back, with the question number they are due at.
  var retries: [(fact: Fact, due: Int)] = []
  var right = 0
  var wrong = 0
  var missed: [Fact] = []
  /// Right answers and how long they took, for the slowest three.
  var times: [(fact: Fact, milliseconds: Int64)] = []
  /// Time spent on the questions answered, right or wrong.
  var answering: Int64 = 0
  /// When the round started, and (`shownAt`) the question: monotonic readings, for durations.
  let startedAt: Int64

  /// Starts a drill: the first question is drawn at once.
  init(options: DrillOptions, round: Round = .tables, state: inout SessionState) {
    self.options = options
    self.round = round
    startedAt = state.clock.monotonicMilliseconds()
    shownAt = startedAt
    current = Fact(options.tables[0], 2, options.operation)
    current = nextFact(at: 1, previous: nil, random: &state.random)!
  }

  public var prompt: String {
    switch round {
    case .tables:
      let progress = options.count.map { "\(number)/\($0)" } ?? "\(number)"
      return "drill \(options.label) \(progress)> "
    case .list(let name, _):
      return "drill \(name) \(number)/\(number + remaining)> "
    }
  }

  /// Questions still to come in a list round, after the current one.
  var remaining: Int {
    guard case .list(_, let facts) = round else { return 0 }
    return facts.count - listIndex + retries.count
  }

  /// The opening lines: what is being drilled, and the first question.
  func opening(profile: String) -> [Output] {
    let what: String
    switch round {
    case .tables:
      let order = options.random ? "in random order" : "in order"
      let count = options.count.map { Wording.count($0, "question") } ?? "until you quit"
      what = "\(options.tablesName) (\(options.operation.rawValue)) up to \(options.maximum), \(order), \(count)"
    case .list(let name, let facts):
      let count = Wording.count(facts.count, "fact")
      what = name == "review" ? "review of the \(count) due, weakest first" : "the \(count) you know least"
    }
    return [
      .note("Drill for \(profile): \(what)."),
      .note("Type the answer. Enter alone shows it; skip, stats, help, quit."),
      .question(current.question),
    ]
  }

  // MARK: Lines

  /// Handles a line; returns the reply and whether the drill is over.
  mutating func respond(_ line: String, in state: inout SessionState) -> (Reply, done: Bool) {
    let input = line.trimmingSpaces.lowercased()
    switch input {
    case "quit", "done", "exit", "q":
      return (Reply(summary(now: state.clock.monotonicMilliseconds())), true)
    case "help", "?":
      return (Reply([.note(DrillMode.help), .question(current.question)]), false)
    case "stats":
      // The time spent reading the statistics does not count against the question.
      shownAt = state.clock.monotonicMilliseconds()
      return (Reply(Statistics.report(for: state) + [.question(current.question)]), false)
    case "":
      if revealed { return advance(with: [], state: &state) }
      revealed = true
      // Not scored, but not known either: the fact goes back to Leitner box 1.
      state.save(
        Answers.SetBack(
          item: current.item, profile: state.profile, mode: DrillMode.storeMode,
          to: Leitner.start(at: state.clock.nowMilliseconds())))
      return (Reply([.note("\(current.statement)  (not scored; Enter for the next question)")]), false)
    case "skip", "s":
      return advance(with: [.note("skipped: \(current.statement)")], state: &state)
    default:
      guard let given = DrillMode.number(input) else {
        return (Reply([.note("type a number (or quit)")]), false)
      }
      if revealed { return advance(with: [.note("not scored: the answer was shown")], state: &state) }
      let elapsed = state.clock.monotonicMilliseconds() - shownAt
      answering += elapsed
      let correct = given == String(current.answer)
      var feedback: [Output]
      if correct {
        right += 1
        times.append((current, elapsed))
        feedback = [.feedback(correct: true, "✓ \(Durations.seconds(elapsed))")]
      } else {
        wrong += 1
        if !missed.contains(current) { missed.append(current) }
        scheduleRetry(of: current, random: &state.random)
        feedback = [.feedback(correct: false, "✗ \(current.statement)")]
      }
      // Saved before the next question appears: what was acknowledged is never lost.
      let leitner = Leitner(
        utcOffsetSeconds: state.clock.utcOffsetSeconds(atMilliseconds: state.clock.nowMilliseconds()))
      state.record(
        mode: DrillMode.storeMode, item: current.item, given: given, correct: correct, milliseconds: elapsed,
        learn: { saved, now in leitner.next(after: saved, correct: correct, at: now) })
      return advance(with: feedback, state: &state)
    }
  }

  /// Moves to the next question, or ends the round when its count is reached.
  mutating func advance(with outputs: [Output], state: inout SessionState) -> (Reply, done: Bool) {
    let now = state.clock.monotonicMilliseconds()
    if case .tables = round, let count = options.count, number >= count {
      return (Reply(outputs + summary(now: now)), true)
    }
    guard let next = nextFact(at: number + 1, previous: current, random: &state.random) else {
      return (Reply(outputs + summary(now: now)), true)
    }
    number += 1
    revealed = false
    current = next
    shownAt = now
    return (Reply(outputs + [.question(current.question)]), false)
  }

  // MARK: Choosing questions

  /// A missed fact comes back 3 to 5 questions later, at the first of those not yet taken.
  mutating func scheduleRetry(of fact: Fact, random: inout any RandomSource) {
    retries.removeAll { $0.fact == fact }
    let taken = Set(retries.map(\.due))
    let first = number + Int.random(in: 3...5, using: &random)
    var due = first
    while taken.contains(due) { due += 1 }
    retries.append((fact, due))
  }

  /// The fact for question `number`: a retry that is due, else the next of the round. A list round that has
  /// run out brings its waiting retries forward (never the fact just asked, unless it is the
  /// only one left), and ends when none are left: nil.
  mutating func nextFact(at number: Int, previous: Fact?, random: inout any RandomSource) -> Fact? {
    if let index = retries.indices.filter({ retries[$0].due <= number }).min(by: { retries[$0].due < retries[$1].due })
    {
      let fact = retries.remove(at: index).fact
      // The retry stands in for the fact's card in this pass of a random round.
      deck.removeAll { $0 == fact }
      return fact
    }
    switch round {
    case .list(_, let facts):
      if listIndex < facts.count {
        listIndex += 1
        return facts[listIndex - 1]
      }
      return takeWaitingRetry(previous: previous)
    case .tables:
      if options.random { return deal(previous: previous, random: &random) }
      return nextInOrder()
    }
  }

  /// The retry waiting longest, brought forward; never the fact just asked unless it is the
  /// only one. Nil when none is waiting.
  mutating func takeWaitingRetry(previous: Fact?) -> Fact? {
    let waiting = retries.indices.sorted { retries[$0].due < retries[$1].due }
    guard let index = waiting.first(where: { retries[$0].fact != previous }) ?? waiting.first else { return nil }
    return retries.remove(at: index).fact
  }

  /// Random order: the next card of a shuffled deck of the range's facts, reshuffled when it
  /// runs out, so every fact is asked once a pass. Never the fact just asked (across a
  /// reshuffle, or after its retry), and never a fact waiting to come back: its retry stands
  /// in for its card. When nothing else is left to ask (a range of one or two facts), a
  /// waiting retry comes early; only a range of one fact asks the same question twice running.
  mutating func deal(previous: Fact?, random: inout any RandomSource) -> Fact {
    deck.removeAll { fact in retries.contains { $0.fact == fact } }
    if !deck.contains(where: { $0 != previous }) {
      let range = options.tables.flatMap { table in (2...options.maximum).map { Fact(table, $0, options.operation) } }
      deck = Shuffle.items(range, &random).filter { fact in !retries.contains { $0.fact == fact } }
    }
    if let index = deck.lastIndex(where: { $0 != previous }) { return deck.remove(at: index) }
    if retries.contains(where: { $0.fact != previous }), let early = takeWaitingRetry(previous: previous) {
      return early
    }
    // A range of one fact.
    return deck.popLast() ?? previous ?? Fact(options.tables[0], 2, options.operation)
  }

  /// In order: table by table, each from 2 to the maximum, then round again.
  mutating func nextInOrder() -> Fact {
    let fact = Fact(options.tables[tableIndex], operand, options.operation)
    operand += 1
    if operand > options.maximum {
      operand = 2
      tableIndex = (tableIndex + 1) % options.tables.count
    }
    return fact
  }

  // MARK: Summary

  func summary(now: Int64) -> [Output] {
    let answered = right + wrong
    guard answered > 0 else { return [.note("Drill over: no questions answered.")] }
    let total = now - startedAt
    var lines = [
      "Drill over: \(right) right, \(wrong) wrong (\(Wording.percent(right, of: answered))) in "
        + "\(Durations.minutesAndSeconds(total)), \(Durations.seconds(answering / Int64(answered))) a question."
    ]
    if !missed.isEmpty { lines.append("Missed: " + missed.map(\.statement).joined(separator: ", ")) }
    // Each fact once, at its slowest.
    var seen: Set<Fact> = []
    let slowest = times.sorted { $0.milliseconds > $1.milliseconds }.filter { seen.insert($0.fact).inserted }.prefix(3)
    if !slowest.isEmpty {
      lines.append(
        "Slowest: "
          + slowest.map { "\($0.fact.expression) (\(Durations.seconds($0.milliseconds)))" }.joined(separator: ", "))
    }
    return lines.map { .note($0) }
  }

  /// A typed answer as a whole number, in its plain form (`+49` is `49`, `042` is `42`);
  /// digits too many for an Int still count, as a wrong answer. Nil for anything else.
  static func number(_ input: String) -> String? {
    var digits = Substring(input)
    var negative = false
    if let sign = digits.first, sign == "-" || sign == "+" || sign == "−" {
      negative = sign != "+"
      digits = digits.dropFirst()
    }
    guard !digits.isEmpty, digits.allSatisfy({ ("0"..."9").contains($0) }) else { return nil }
    let plain = String(digits.drop { $0 == "0" })
    return plain.isEmpty ? "0" : (negative ? "-" : "") + plain
  }

  static let help = """
    Type the answer and press Enter: ✓, or ✗ with the right answer. A missed
    fact comes back a few questions later until you get it right. Enter alone
    shows the answer (not scored); Enter again moves on. skip moves on too;
    stats shows your progress; quit (or done, or Ctrl-D) ends with a summary.
    """
}

extension DrillMode: Mode {
  public func prompt(at now: Int64) -> String { prompt }

  public mutating func handle(_ line: String, in state: inout SessionState) -> ModeStep {
    return .after(respond(line, in: &state))
  }

  public mutating func finish(in state: inout SessionState) -> Reply {
    Reply(summary(now: state.clock.monotonicMilliseconds()))
  }

  public func completions(isFirstWord: Bool, before: String, state: SessionState) -> [String] {
    // The answers are numbers: only the drill's own words complete.
    isFirstWord ? ["quit", "done", "skip", "help", "stats"] : []
  }
}
