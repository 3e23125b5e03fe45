import ReckonCore

/// `factor [expr]`: the prime factors of a whole number (of `ans` without one).
struct FactorCommand: Command {
  static let help = CommandHelp(
    name: "factor", usage: "factor [n]", summary: "the prime factors of a whole number",
    details: """
      factor 360    360 = 2^3 × 3^2 × 5
      factor        the prime factors of ans
      Trial division to 10,000, then Pollard's rho for half a second: a part
      no factor of which turns up in that time is shown as it is. A part of
      more than 3,000 digits left after trial division is not searched (its
      primality test alone would take longer). Primes above 2^64 are found by
      a Baillie–PSW test, which has no known counterexample. Also isprime(n)
      in an expression. Ctrl-C stops it.
      """)

  let n: BigInteger
  let span: SourceSpan

  init(parsing arguments: Arguments, in state: SessionState) throws(Diagnostic) {
    let offset = arguments.start
    let tokens = try arguments.tokens(in: state)
    let value = try Operands.value(tokens, orAnswerFor: "factor", at: offset, in: state)
    let start = tokens.tokens.first.map { $0.kind == .end ? offset : $0.span.start } ?? offset
    span = SourceSpan(start, max(start, tokens.tokens.last?.span.start ?? start))
    guard let r = value.exact, r.isInteger else {
      throw Diagnostic("factor needs a whole number", at: span, hint: "for example: factor 360")
    }
    n = r.numerator
  }

  /// How long the search for factors may take, in milliseconds of the session's clock.
  static let timeBudget: Int64 = 500

  func run(in state: inout SessionState) throws(Diagnostic) -> ModeStep {
    let text = n.string()
    if n.isZero { return .stay(Reply([.result("0 has no prime factors: every prime divides it")])) }
    if n.magnitude == 1 { return .stay(Reply([.result("\(text) has no prime factors")])) }
    let interruption = state.interruption
    let clock = state.clock
    let deadline = clock.monotonicMilliseconds() + FactorCommand.timeBudget
    var outOfTime = false
    let result = Factoring.factor(
      n, budget: state.factorSteps,
      stop: {
        if clock.monotonicMilliseconds() >= deadline { outOfTime = true }
        return outOfTime || interruption.isRequested
      })
    if interruption.isRequested { throw Interruption.diagnostic(at: span) }
    if result.unfactored.isEmpty && result.untested.isEmpty && result.factors.count == 1
      && result.factors[0].exponent == 1 && !n.isNegative
    {
      return .stay(Reply([.result("\(text) is prime")]))
    }
    let search =
      "trial division to \(Int(Factoring.trialLimit).grouped), then "
      + (outOfTime
        ? "half a second of Pollard's rho" : "\(state.factorSteps.grouped) steps of Pollard's rho")
    let tooLarge =
      "it has no prime factor below \(Int(Factoring.trialLimit).grouped), and factor searches no further in "
      + "numbers of more than \(FactorCommand.searchedDigits) digits"
    if result.factors.isEmpty && result.unfactored.count + result.untested.count == 1 {
      if let part = result.untested.first {
        return .stay(Reply([.result("\(FactorCommand.describe(part)) is not factored: \(tooLarge)")]))
      }
      return .stay(Reply([.result("\(text) is composite, but no factor of it turned up (\(search))")]))
    }
    var parts =
      (n.isNegative ? ["-1"] : [])
      + result.factors.map { $0.exponent == 1 ? $0.prime.string() : "\($0.prime)^\($0.exponent)" }
    // A composite part found as a square (or cube…) is written once with its exponent.
    var composite: [(part: BigInteger, exponent: Int)] = []
    for part in result.unfactored {
      if composite.last?.part == part {
        composite[composite.count - 1].exponent += 1
      } else {
        composite.append((part, 1))
      }
    }
    parts += composite.map { $0.exponent == 1 ? "\($0.part)" : "(\($0.part))^\($0.exponent)" }
    parts += result.untested.map { "(\(FactorCommand.describe($0)))" }
    var outputs: [Output] = [.result("\(text) = " + parts.joined(separator: " × "))]
    for (part, _) in composite {
      outputs.append(.note("\(part) is composite, but no factor of it turned up (\(search))"))
    }
    for part in result.untested {
      outputs.append(
        .note(
          "\(FactorCommand.describe(part)) is not factored further: it may be prime or not, and "
            + "factor searches no further in numbers of more than \(FactorCommand.searchedDigits) digits"))
    }
    return .stay(Reply(outputs))
  }

  /// The largest number of digits every number `factor` searches may have.
  static let searchedDigits = Int(Double(Factoring.maxSearchedBits) * 0.30102999566398).grouped

  /// A part too large to search, named by its size rather than in full.
  static func describe(_ part: BigInteger) -> String {
    let digits = part.string()
    guard digits.count > 60 else { return digits }
    return "the \(digits.count.grouped)-digit part \(digits.prefix(12))…\(digits.suffix(12))"
  }
}
