import ReckonCore

/// `full [expr]`: ans, or the value of expr (which becomes ans), with every digit.
struct FullCommand: Command {
  static let help = CommandHelp(
    name: "full", usage: "full [expr]", summary: "show ans (or expr) in full",
    details: """
      full          ans with every digit, whatever set digits and set format say
      full 1/8      the value of an expression in full (it becomes ans)
      An integer or a decimal that ends: every digit (10000*1.07^30 prints
      76122.55042…, and full then shows all 60 of its decimals). A value
      whose decimals repeat forever: its fraction, and its decimals with the
      repeating part in brackets: full 1/6 is 1/6 = 0.1[6] (up to 10,000
      decimals). A multiple of π or e: its exact form, 2π ≈ 6.283185307.
      An approximation (≈) has no full form: set digits N shows more digits.
      """, readsSettings: true)

  let value: Value
  /// Whether an expression was given (its value becomes ans).
  let isNew: Bool
  /// Where a refusal points: the expression, or the command's word.
  let span: SourceSpan

  init(parsing arguments: Arguments, in state: SessionState) throws(Diagnostic) {
    let tokens = try arguments.tokens(in: state)
    value = try Operands.value(tokens, orAnswerFor: "full", at: arguments.start, in: state)
    isNew = tokens.tokens.count > 1
    span = isNew ? tokens.tokens.first!.span.union(tokens.tokens[tokens.tokens.count - 2].span) : arguments.nameSpan
  }

  func run(in state: inout SessionState) throws(Diagnostic) -> ModeStep {
    switch state.formatter.full(value) {
    case .text(let text):
      if isNew { state.environment.answer = value }
      return .stay(Reply([.result(text)]))
    case .refused(let why, let hint):
      throw Diagnostic(why, at: span, hint: hint)
    }
  }
}
