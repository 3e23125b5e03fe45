import ReckonCore

/// What the calculator's commands read from their arguments: an expression's value (or
/// `ans`), a count, an amount of money.
enum Operands {
  /// Evaluates a run of tokens as one expression.
  static func evaluate(_ tokens: TokenList, in state: SessionState) throws(Diagnostic) -> Value {
    var parser = Parser(tokens: tokens)
    let expr = try parser.expression()
    try parser.expectEnd()
    return try state.evaluator.evaluate(expr, in: state.environment)
  }

  /// The value of the tokens, or `ans` when there are none.
  static func value(
    _ tokens: TokenList, orAnswerFor name: String, at offset: Int, in state: SessionState
  ) throws(Diagnostic) -> Value {
    if tokens.tokens.count > 1 { return try evaluate(tokens, in: state) }
    guard let answer = state.environment.answer else {
      throw Diagnostic(
        "\(name) needs a value, and there is no previous result yet", at: SourceSpan(offset, offset),
        hint: "for example: \(name) 5")
    }
    return answer
  }

  /// A whole number in `range` from a number token.
  static func count(_ token: Token, in list: TokenList, what: String, range: ClosedRange<Int>) throws(Diagnostic)
    -> Int
  {
    guard let r = list.number(of: token), let n = r.intValue, range.contains(n) else {
      throw Diagnostic(
        "\(what) must be a whole number from \(range.lowerBound) to \(range.upperBound.grouped)",
        at: token.span)
    }
    return n
  }

  /// Money is exact: an approximation (`tip sqrt(2000)`) is rounded to the cent first, from
  /// as many of its digits as that takes. Amounts from 10^15 up (a thousand trillion of any
  /// currency: more than the world's yearly output in dollars or euros, and as far as
  /// amounts of money need to go) are refused rather than worked out to the cent (`tip
  /// 10^999999` took 9.5 s and printed 11 MB).
  static func exactAmount(_ value: Value, at span: SourceSpan, in state: SessionState) throws(Diagnostic) -> Rational {
    try MoneyInput.amount(value, at: span, in: state).amount
  }

  /// Whether a token can end an operand (a number, a name, a closing parenthesis), so that a
  /// number right after it is not part of the same expression.
  static func endsOperand(_ token: Token) -> Bool {
    [.number, .name, .rightParen].contains(token.kind)
  }
}
