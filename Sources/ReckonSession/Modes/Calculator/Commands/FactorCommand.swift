import ReckonCore

/// `factor [expr]`: the prime factors of a whole number (of `ans` without one).
struct FactorCommand: Command {
  static let help = CommandHelp(
    name: "factor", usage: "factor [n]", summary: "the prime factors of a whole number",
    details: """
      factor 360    360 = 2^3 × 3^2 × 5
      factor        the prime factors of ans
      Trial division, then Pollard's rho for up to a few seconds' worth of steps:
      a part no factor of which turns up in time is shown as it is, with its
      size. Primes above 2^64 are found by a Baillie–PSW test, which has no
      known counterexample. Also isprime(n) in an expression.
      """)

  let n: BigInteger
  let span: SourceSpan

  init(parsing arguments: Arguments, in state: SessionState) throws(Diagnostic) {
    let offset = arguments.start
    let tokens = try arguments.tokens(in: state)
    let value = try Operands.value(tokens, orAnswerFor: "factor", at: offset, in: state)
    let start = tokens.tokens.first.map { $0.kind == .end ? offset : $0.span.start } ?? offset
    span = SourceSpan(start, max(start, tokens.tokens.last?.span.start ?? start))
    guard case .exact(let r) = value, r.isInteger else {
      throw Diagnostic("factor needs a whole number", at: span, hint: "for example: factor 360")
    }
    n = r.numerator
  }

  func run(in state: inout SessionState) throws(Diagnostic) -> ModeStep {
    let text = n.string()
    if n.isZero { return .stay(Reply([.result("0 has no prime factors: every prime divides it")])) }
    if n.magnitude == 1 { return .stay(Reply([.result("\(text) has no prime factors")])) }
    let interruption = state.interruption
    let result = Factoring.factor(n, budget: state.factorSteps, stop: { interruption.isRequested })
    if interruption.isRequested { throw Interruption.diagnostic(at: span) }
    if result.unfactored.isEmpty && result.factors.count == 1 && result.factors[0].exponent == 1 && !n.isNegative {
      return .stay(Reply([.result("\(text) is prime")]))
    }
    let search =
      "trial division to \(Int(Factoring.trialLimit).grouped), then \(Factoring.defaultBudget.grouped) steps of Pollard's rho"
    if result.factors.isEmpty && result.unfactored.count == 1 {
      return .stay(Reply([.result("\(text) is composite, but no factor of it turned up (\(search))")]))
    }
    var parts =
      (n.isNegative ? ["-1"] : [])
      + result.factors.map { $0.exponent == 1 ? $0.prime.string() : "\($0.prime)^\($0.exponent)" }
    parts += result.unfactored.map { "\($0)" }
    var outputs: [Output] = [.result("\(text) = " + parts.joined(separator: " × "))]
    for part in result.unfactored {
      outputs.append(.note("\(part) is composite, but no factor of it turned up (\(search))"))
    }
    return .stay(Reply(outputs))
  }
}
