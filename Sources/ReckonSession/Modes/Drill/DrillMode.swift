/// The times-table drill: a state machine fed one line at a time. It asks a fact, checks the
/// answer with the session's clock, brings missed facts back 3–5 questions later until they
/// are answered right, and ends with a summary; the calculator's state is never touched.
public struct DrillMode: Sendable {
  public private(set) var options: DrillOptions
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
  /// Missed facts waiting to come back, with the question number they are due at.
  var retries: [(fact: Fact, due: Int)] = []
  var right = 0
  var wrong = 0
  var missed: [Fact] = []
  /// Right answers and how long they took, for the slowest three.
  var times: [(fact: Fact, milliseconds: Int64)] = []
  let startedAt: Int64

  /// Starts a drill: the first question is drawn at once.
  init(options: DrillOptions, state: inout SessionState) {
    self.options = options
    startedAt = state.clock.nowMilliseconds()
    shownAt = startedAt
    current = Fact(options.tables[0], 2, options.operation)
    current = nextFact(previous: nil, random: &state.random)
  }

  public var prompt: String {
    let progress = options.count.map { "\(number)/\($0)" } ?? "\(number)"
    return "drill \(options.label) \(progress)> "
  }

  /// The opening lines: what is being drilled, and the first question.
  func opening() -> [Output] {
    let order = options.random ? "in random order" : "in order"
    let round = options.count.map { "\($0) questions" } ?? "until you quit"
    let tables =
      options.tables.count == 1
      ? "the \(options.tables[0]) table" : "tables \(options.tables.first!)–\(options.tables.last!)"
    return [
      .note("Drill: \(tables) (\(options.operation.rawValue)) up to \(options.maximum), \(order), \(round)."),
      .note("Type the answer. Enter alone shows it; skip, help, quit."),
      .question(current.question),
    ]
  }

  // MARK: Lines

  /// Handles a line; returns the reply and whether the drill is over.
  mutating func handle(_ line: String, in state: inout SessionState) -> (Reply, done: Bool) {
    let input = line.trimmingSpaces.lowercased()
    switch input {
    case "quit", "done", "exit", "q":
      return (Reply(summary(now: state.clock.nowMilliseconds())), true)
    case "help", "?":
      return (Reply([.note(DrillMode.help), .question(current.question)]), false)
    case "":
      if revealed { return advance(with: [], state: &state) }
      revealed = true
      return (Reply([.note("\(current.statement)  (not scored; Enter for the next question)")]), false)
    case "skip", "s":
      return advance(with: [.note("skipped: \(current.statement)")], state: &state)
    default:
      guard let given = Int(input) else {
        return (Reply([.note("type a number (or quit)")]), false)
      }
      if revealed { return advance(with: [.note("not scored: the answer was shown")], state: &state) }
      let now = state.clock.nowMilliseconds()
      let elapsed = now - shownAt
      var feedback: [Output]
      if given == current.answer {
        right += 1
        times.append((current, elapsed))
        feedback = [.feedback(correct: true, "✓ \(DrillMode.seconds(elapsed))")]
      } else {
        wrong += 1
        if !missed.contains(current) { missed.append(current) }
        scheduleRetry(of: current, random: &state.random)
        feedback = [.feedback(correct: false, "✗ \(current.statement)")]
      }
      return advance(with: feedback, state: &state)
    }
  }

  /// Moves to the next question, or ends the round when its count is reached.
  mutating func advance(with outputs: [Output], state: inout SessionState) -> (Reply, done: Bool) {
    let now = state.clock.nowMilliseconds()
    if let count = options.count, number >= count {
      return (Reply(outputs + summary(now: now)), true)
    }
    number += 1
    revealed = false
    current = nextFact(previous: current, random: &state.random)
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

  /// The next fact: a retry that is due, else the next in order (or a random one, never the
  /// same as the last).
  mutating func nextFact(previous: Fact?, random: inout any RandomSource) -> Fact {
    if let index = retries.indices.filter({ retries[$0].due <= number }).min(by: { retries[$0].due < retries[$1].due })
    {
      return retries.remove(at: index).fact
    }
    if options.random {
      var fact: Fact
      var tries = 0
      repeat {
        let table = options.tables[Int.random(in: 0..<options.tables.count, using: &random)]
        fact = Fact(table, Int.random(in: 2...options.maximum, using: &random), options.operation)
        tries += 1
        // Not the last question, nor one already waiting to come back at its own time.
      } while (fact == previous || retries.contains { $0.fact == fact }) && tries < 100
      return fact
    }
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
    let score = right * 100 / answered
    var lines = [
      "Drill over: \(right) right, \(wrong) wrong (\(score)%) in \(DrillMode.clock(total)), "
        + "\(DrillMode.seconds(total / Int64(answered))) a question."
    ]
    if !missed.isEmpty { lines.append("Missed: " + missed.map(\.statement).joined(separator: ", ")) }
    let slowest = times.sorted { $0.milliseconds > $1.milliseconds }.prefix(3)
    if !slowest.isEmpty {
      lines.append(
        "Slowest: "
          + slowest.map { "\($0.fact.expression) (\(DrillMode.seconds($0.milliseconds)))" }.joined(separator: ", "))
    }
    return lines.map { .note($0) }
  }

  static func seconds(_ milliseconds: Int64) -> String {
    let tenths = (milliseconds + 50) / 100
    return "\(tenths / 10).\(tenths % 10) s"
  }

  static func clock(_ milliseconds: Int64) -> String {
    let seconds = milliseconds / 1000
    let s = seconds % 60
    return "\(seconds / 60):\(s < 10 ? "0" : "")\(s)"
  }

  static let help = """
    Type the answer and press Enter: ✓ or ✗ with the right answer. A missed fact comes back
    a few questions later until you get it right. Enter alone shows the answer (not scored);
    Enter again moves on. skip moves on too; quit (or done, or Ctrl-D) ends with a summary.
    """
}

extension String {
  var trimmingSpaces: String {
    String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
  }
}
