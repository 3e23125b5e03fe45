/// The arithmetic `QuickEvaluator` computes a line in. It tries `MachineLane` first (two
/// machine words, no allocation, no reference counting: most lines of a batch) and, when a
/// number outgrows it, `ExactLane` (the evaluator's own `Value`s and operations). Either
/// throws `NotHandled` for anything it will not do; the line then goes to the next lane, and
/// after the last to the full path.
protocol QuickLane {
  associatedtype Number
  func literal(_ digits: Int64, fractionDigits: Int) throws(QuickEvaluator.NotHandled) -> Number
  func add(_ a: Number, _ b: Number) throws(QuickEvaluator.NotHandled) -> Number
  func subtract(_ a: Number, _ b: Number) throws(QuickEvaluator.NotHandled) -> Number
  func multiply(_ a: Number, _ b: Number) throws(QuickEvaluator.NotHandled) -> Number
  func divide(_ a: Number, _ b: Number) throws(QuickEvaluator.NotHandled) -> Number
  func power(_ base: Number, _ exponent: Number) throws(QuickEvaluator.NotHandled) -> Number
  func negate(_ a: Number) throws(QuickEvaluator.NotHandled) -> Number
}

/// A fraction in lowest terms in two machine words, the denominator positive: the same pair
/// `Rational` keeps in its small form, so `rational` is the value the full path computes.
/// Neither part is ever `Int64.min` (its negation would overflow).
struct SmallFraction: Equatable {
  var numerator: Int64
  var denominator: Int64

  var rational: Rational { Rational(storage: .small(numerator, denominator)) }

  /// `n/d` (d > 0) in lowest terms.
  static func reduced(_ n: Int64, _ d: Int64) throws(QuickEvaluator.NotHandled) -> SmallFraction {
    guard n != .min else { throw QuickEvaluator.NotHandled() }
    let g = Int64(Rational.gcd(n.magnitude, d.magnitude))
    return g > 1 ? SmallFraction(numerator: n / g, denominator: d / g) : SmallFraction(numerator: n, denominator: d)
  }
}

/// Arithmetic in machine words, refusing (not wrapping) on any overflow.
struct MachineLane: QuickLane {
  typealias NotHandled = QuickEvaluator.NotHandled

  func literal(_ digits: Int64, fractionDigits: Int) throws(NotHandled) -> SmallFraction {
    try SmallFraction.reduced(digits, Lexer.powersOfTen[fractionDigits])
  }

  func add(_ a: SmallFraction, _ b: SmallFraction) throws(NotHandled) -> SmallFraction {
    if a.denominator == b.denominator {
      return try SmallFraction.reduced(checked(a.numerator.addingReportingOverflow(b.numerator)), a.denominator)
    }
    let x = try checked(a.numerator.multipliedReportingOverflow(by: b.denominator))
    let y = try checked(b.numerator.multipliedReportingOverflow(by: a.denominator))
    let d = try checked(a.denominator.multipliedReportingOverflow(by: b.denominator))
    return try SmallFraction.reduced(checked(x.addingReportingOverflow(y)), d)
  }

  func subtract(_ a: SmallFraction, _ b: SmallFraction) throws(NotHandled) -> SmallFraction {
    try add(a, negate(b))
  }

  func negate(_ a: SmallFraction) throws(NotHandled) -> SmallFraction {
    SmallFraction(numerator: -a.numerator, denominator: a.denominator)  // never Int64.min
  }

  func multiply(_ a: SmallFraction, _ b: SmallFraction) throws(NotHandled) -> SmallFraction {
    if a.numerator == 0 || b.numerator == 0 { return SmallFraction(numerator: 0, denominator: 1) }
    // Cross-reduced, so the result is in lowest terms.
    let g1 = Int64(Rational.gcd(a.numerator.magnitude, b.denominator.magnitude))
    let g2 = Int64(Rational.gcd(b.numerator.magnitude, a.denominator.magnitude))
    let n = try checked((a.numerator / g1).multipliedReportingOverflow(by: b.numerator / g2))
    let d = try checked((a.denominator / g2).multipliedReportingOverflow(by: b.denominator / g1))
    guard n != .min else { throw NotHandled() }
    return SmallFraction(numerator: n, denominator: d)
  }

  func divide(_ a: SmallFraction, _ b: SmallFraction) throws(NotHandled) -> SmallFraction {
    try multiply(a, reciprocal(b))
  }

  /// Whole exponents only (a fractional one may be a root or an approximation).
  func power(_ base: SmallFraction, _ exponent: SmallFraction) throws(NotHandled) -> SmallFraction {
    guard exponent.denominator == 1 else { throw NotHandled() }
    let e = exponent.numerator
    if e == 0 { return SmallFraction(numerator: 1, denominator: 1) }  // x^0 is 1, as in the evaluator
    guard base.numerator != 0 else {
      if e < 0 { throw NotHandled() }  // 0 to a negative power: the full path's error
      return base
    }
    // Numerator and denominator are coprime, so their powers are too.
    let b = e < 0 ? try reciprocal(base) : base
    guard e.magnitude <= 64 else {
      // Only ±1 survives such a power in machine words.
      guard b.denominator == 1, b.numerator.magnitude == 1 else { throw NotHandled() }
      return b.numerator == 1 || e % 2 == 0 ? SmallFraction(numerator: 1, denominator: 1) : b
    }
    var n: Int64 = 1
    var d: Int64 = 1
    for _ in 0..<e.magnitude {
      n = try checked(n.multipliedReportingOverflow(by: b.numerator))
      d = try checked(d.multipliedReportingOverflow(by: b.denominator))
    }
    guard n != .min else { throw NotHandled() }
    return SmallFraction(numerator: n, denominator: d)
  }

  func reciprocal(_ a: SmallFraction) throws(NotHandled) -> SmallFraction {
    guard a.numerator != 0 else { throw NotHandled() }  // division by zero: the full path's error
    return a.numerator > 0
      ? SmallFraction(numerator: a.denominator, denominator: a.numerator)
      : SmallFraction(numerator: -a.denominator, denominator: -a.numerator)
  }

  @inline(__always) func checked(_ result: (partialValue: Int64, overflow: Bool)) throws(NotHandled) -> Int64 {
    guard !result.overflow else { throw NotHandled() }
    return result.partialValue
  }
}

/// The evaluator's own numbers and numeric operations (with their size checks), on operands of at
/// most `QuickEvaluator.maxOperandBits`: anything bigger is the full path's, which stops for
/// Ctrl-C between steps and says where it stopped.
struct ExactLane: QuickLane {
  typealias NotHandled = QuickEvaluator.NotHandled
  let evaluator: Evaluator
  static let nowhere = SourceSpan(0, 0)

  func literal(_ digits: Int64, fractionDigits: Int) throws(NotHandled) -> Number {
    .exact(Lexer.literal(digits, shift: -fractionDigits))
  }

  func add(_ a: Number, _ b: Number) throws(NotHandled) -> Number {
    try attempt(a, b) { () throws(Diagnostic) in try evaluator.add(a, b, at: Self.nowhere) }
  }

  func subtract(_ a: Number, _ b: Number) throws(NotHandled) -> Number {
    try attempt(a, b) { () throws(Diagnostic) in try evaluator.add(a, evaluator.negate(b), at: Self.nowhere) }
  }

  func multiply(_ a: Number, _ b: Number) throws(NotHandled) -> Number {
    try attempt(a, b) { () throws(Diagnostic) in try evaluator.multiply(a, b, at: Self.nowhere) }
  }

  func divide(_ a: Number, _ b: Number) throws(NotHandled) -> Number {
    try attempt(a, b) { () throws(Diagnostic) in try evaluator.divide(a, b, at: Self.nowhere) }
  }

  func negate(_ a: Number) throws(NotHandled) -> Number { evaluator.negate(a) }

  /// Whole exponents only, and results within the size the quick path takes on.
  func power(_ base: Number, _ exponent: Number) throws(NotHandled) -> Number {
    guard case .exact(let b) = base, case .exact(let e) = exponent, let n = e.intValue,
      n.magnitude <= UInt(QuickEvaluator.maxOperandBits),
      b.bitWidth * Int(n.magnitude) <= QuickEvaluator.maxOperandBits
    else { throw NotHandled() }
    return try attempt(base, exponent) { () throws(Diagnostic) in
      try evaluator.power(base, exponent, at: Self.nowhere)
    }
  }

  /// An evaluator operation on `a` and `b`, when both are small enough; its error is the
  /// full path's to report. Ctrl-C is asked before each one, as the full path asks before
  /// each node; a request hands the line to the full path, which stops at once and says so.
  func attempt(_ a: Number, _ b: Number, _ operation: () throws(Diagnostic) -> Number) throws(NotHandled) -> Number {
    guard ExactLane.isSmall(a), ExactLane.isSmall(b), !evaluator.interruption.isRequested else {
      throw NotHandled()
    }
    do { return try operation() } catch { throw NotHandled() }
  }

  static func isSmall(_ value: Number) -> Bool {
    if case .exact(let r) = value { return r.bitWidth <= QuickEvaluator.maxOperandBits }
    return true
  }
}
