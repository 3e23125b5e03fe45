import ReckonCore

/// The pure core on one line of arbitrary bytes: lex, parse, evaluate, format.
///
/// Invariants: an error points inside the line (or just past its end); a result printed
/// exactly (no `…`, no `≈`) reads back as the same number; the calculator's quick path for
/// plain arithmetic, when it answers, answers what the full path does; nothing traps.
///
/// Numbers are limited to 2,000 digits rather than 100,000: the limit's code is the same, and
/// under the sanitizers a 100,000-digit multiplication takes seconds that are better spent on
/// other inputs. (The real limit's timing is checked by the hostile-input table.)
enum ExpressionTarget {
  static let digitLimit = 2_000

  /// Names a line can use: a variable and a previous result, so `x`, `ans` and "* 2" work.
  static let environment = Environment(variables: ["x": .rational(Rational(7) / Rational(3))], answer: .rational(42))

  @Sendable static func run(_ bytes: [UInt8]) {
    // The session refuses longer lines before they reach the core.
    guard bytes.count <= 65_536 else { return }
    let line = String(decoding: bytes, as: UTF8.self)
    let length = line.unicodeScalars.count
    let quick = QuickEvaluator.value(of: line, evaluator: Evaluator(digitLimit: digitLimit))
    do {
      var statement = try Parser.parseLine(line, maxExponent: digitLimit)
      var conversion: Conversion?
      if case .converted(let inner, let to) = statement { (statement, conversion) = (inner, to) }
      switch statement {
      case .empty, .converted:
        return
      case .expression(let expr, _), .assignment(_, _, let expr):
        let value = try Evaluator(digitLimit: digitLimit).evaluate(expr, in: environment)
        require(quick == nil || quick == value, "the quick path gave \(quick!) for \(line.debugDescription)")
        var formatter = NumberFormatter()
        formatter.maxExactPlaces = digitLimit
        let text = formatter.format(value)
        require(!text.isEmpty, "an empty result for \(line.debugDescription)")
        if let conversion { convert(value, conversion, line: line) }
        guard let r = value.exact, !text.contains("…") else { return }
        let back = try Evaluator().evaluate(Parser.parseExpression(text), in: Environment())
        require(back == .rational(r), "\(text) does not read back as the value of \(line.debugDescription)")
      }
    } catch {
      require(quick == nil, "the quick path answered \(line.debugDescription), which is an error")
      require(!error.message.isEmpty, "an empty error message for \(line.debugDescription)")
      require(
        error.span.start >= 0 && error.span.start <= length && error.span.end <= length + 1,
        "error span \(error.span) outside a line of \(length) characters: \(line.debugDescription)")
      _ = error.rendered(source: line)
    }
  }

  /// A conversion gives text, or says why not; digits written with a prefix read back as the
  /// value when nothing was cut.
  static func convert(_ value: Value, _ conversion: Conversion, line: String) {
    var formatter = NumberFormatter()
    formatter.maxExactPlaces = digitLimit
    let converted = formatter.converted(value, to: conversion.target)
    switch converted {
    case .refused(let why, _):
      require(!why.isEmpty, "an empty refusal for \(line.debugDescription)")
    case .text(let text):
      require(!text.isEmpty, "an empty conversion for \(line.debugDescription)")
      guard let r = value.exact, conversion.target.radix?.prefix != nil || conversion.target == .fraction,
        !text.contains("…")
      else { return }
      let back = try? Evaluator().evaluate(Parser.parseExpression(text), in: Environment())
      require(back == .rational(r), "\(text) does not read back as the value of \(line.debugDescription)")
    }
  }
}
