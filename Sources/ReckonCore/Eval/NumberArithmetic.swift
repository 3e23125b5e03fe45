#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The numeric operations under the evaluator's quantities: exact where they can be, within
/// the limits that keep every answer fast, approximated past them.
extension Evaluator {
  /// -1, 0 or 1 as `a` is below, equal to or above `b`: exactly for exact values and
  /// multiples of π, by working out digits for approximations (an error when they agree to
  /// every digit that can be worked out).
  public func compare(_ a: Number, _ b: Number, at span: SourceSpan, equality: Bool = false) throws(Diagnostic) -> Int {
    if case .exact(let x) = a, case .exact(let y) = b { return x < y ? -1 : x == y ? 0 : 1 }
    if let (x, c) = a.symbolic, let (y, d) = b.symbolic, c == d { return x < y ? -1 : x == y ? 0 : 1 }
    if case .approx(let x) = a, case .approx(let y) = b, x.isSameRecipe(as: y) { return 0 }
    guard let sign = (a.real - b.real).sign else {
      throw Diagnostic(
        "cannot tell \(equality ? "whether they are equal" : "which is larger"): they agree to every digit that "
          + "can be worked out", at: span,
        hint: "approximations can be told apart only where their digits differ, and never shown to be equal")
    }
    return sign
  }

  public func negate(_ v: Number) -> Number {
    switch v {
    case .exact(let r): .exact(-r)
    case .multiple(let r, let c): .multiple(-r, c)
    case .approx(let x): .approx(-x)
    }
  }

  public func add(_ a: Number, _ b: Number, at span: SourceSpan) throws(Diagnostic) -> Number {
    // 0 + π is π, still exact.
    if a.isZero { return b }
    if b.isZero { return a }
    if case .exact(let x) = a, case .exact(let y) = b {
      if fits(Rational.sumBitWidthBound(x, y)) { return .exact(x + y) }
    } else if let (x, c) = a.symbolic, let (y, d) = b.symbolic, c == d {
      // 2π + 3π is 5π; π − π is 0.
      if fits(Rational.sumBitWidthBound(x, y)) { return .product(x + y, c) }
    } else if case .approx(let x) = a, case .approx(let y) = b, x.isNegation(of: y) {
      // x − x is 0 exactly, though no enclosure of it could show more than "near 0".
      return .exact(.zero)
    }
    return try approximate(a.real + b.real, at: span)
  }

  public func multiply(_ a: Number, _ b: Number, at span: SourceSpan) throws(Diagnostic) -> Number {
    if a.isZero || b.isZero { return .exact(.zero) }  // 0·π is exactly 0
    if let (x, c) = a.symbolic, let (y, d) = b.symbolic, fits(Rational.productBitWidthBound(x, y)) {
      return .product(x * y, Number.Constants(pi: c.pi + d.pi, e: c.e + d.e))
    }
    return try approximate(a.real * b.real, at: span)
  }

  public func divide(_ a: Number, _ b: Number, at span: SourceSpan) throws(Diagnostic) -> Number {
    try requireNonZero(b, at: span)
    if a.isZero { return .exact(.zero) }
    if let (x, c) = a.symbolic, let (y, d) = b.symbolic, fits(Rational.quotientBitWidthBound(x, y)) {
      // (3π)/(2π) is 1.5.
      return .product(x / y, Number.Constants(pi: c.pi - d.pi, e: c.e - d.e))
    }
    return try approximate(a.real / b.real, at: span)
  }

  /// `x mod y`, the floored remainder x − y·⌊x/y⌋.
  func modulo(_ a: Number, _ b: Number, at span: SourceSpan) throws(Diagnostic) -> Number {
    guard !b.isZero else { throw Diagnostic("division by zero", at: span, hint: "x mod 0 is undefined") }
    if case .exact(let x) = a, case .exact(let y) = b, fits(x.bitWidth + y.bitWidth) {
      return .exact(Rational.floorMod(x, y))
    }
    try requireNonZero(b, at: span)
    let quotient = try divide(a, b, at: span)
    guard let whole = try exactly(quotient, at: span, what: "x mod y", { $0.floor }) else {
      throw Diagnostic("x mod y: x/y is too large for its whole part to be exact", at: span)
    }
    return try add(a, negate(multiply(b, .exact(whole), at: span)), at: span)
  }

  /// Refuses a divisor that is 0, or an approximation too close to 0 to tell.
  func requireNonZero(_ v: Number, at span: SourceSpan) throws(Diagnostic) {
    if v.isZero { throw Diagnostic("division by zero", at: span) }
    if case .approx(let x) = v, x.sign == nil {
      throw Diagnostic(
        "division by a number that may be zero (it is zero to every digit that can be worked out)", at: span)
    }
  }

  /// `round` applied to the exact value of `v`, for an approximation when every enclosure
  /// of it rounds alike (⌊π⌋ is exactly 3); an error when it lies too close to a boundary.
  /// nil when the value is too large for its integer part to be exact: rounding it changes
  /// none of the digits an approximation of it can show.
  func exactly(
    _ v: Number, at span: SourceSpan, what: String, _ round: (Rational) -> Rational
  ) throws(Diagnostic) -> Rational? {
    if case .exact(let r) = v { return round(r) }
    switch v.real.exactly(maxBits: min(maxBits, Evaluator.maxRoundingBits), round) {
    case .value(let r): return r
    case .tooLarge: return nil
    case .undecided:
      throw Diagnostic(
        "\(what): the value is too close to a whole number (or halfway) to tell which side it is on", at: span)
    }
  }

  func power(_ base: Number, _ exponent: Number, at span: SourceSpan) throws(Diagnostic) -> Number {
    if exponent.isZero { return .exact(.one) }  // x^0 is 1 exactly, even for ≈ x
    if case .exact(let e) = exponent, let n = e.isInteger ? e.intValue : nil {
      switch base {
      case .exact(let b):
        return try integerPower(b, n, at: span)
      case .multiple(let r, let c):
        // (2π)^3 is 8π³, as long as its parts stay within the limits.
        if n.magnitude <= Number.Constants.maxPower, r.bitWidth * Int(n.magnitude) <= maxBits,
          case .exact(let rn) = try integerPower(r, n, at: span)
        {
          return .product(rn, Number.Constants(pi: c.pi * n, e: c.e * n))
        }
        return try approximate(base.real.power(n), at: span)
      case .approx(let x):
        if n < 0 { try requireNonZero(base, at: span) }
        return try approximate(x.power(n), at: span)
      }
    }
    if case .exact(let e) = exponent, case .exact(let b) = base {
      guard e.isInteger else { return try rationalPower(b, e, at: span) }
      // An integer exponent too large for a machine word: 0, 1 and −1 stay exact, anything
      // else is far past the digit limit: |b|^e, with the sign of a negative base to an odd power.
      if b.isZero {
        if e.isNegative { throw Diagnostic("division by zero: 0 to a negative power", at: span) }
        return .exact(.zero)
      }
      if b.magnitude == .one { return .exact(b.isNegative && e.numerator.isOdd ? -1 : .one) }
      let magnitude = Real.rational(b.magnitude).power(Real.rational(e))
      return try approximate(b.isNegative && e.numerator.isOdd ? -magnitude : magnitude, at: span)
    }
    // e^x is exp(x).
    if base == Number.e { return try approximate(exponent.real.exp, at: span) }
    switch base.sign {
    case 0?:
      guard exponent.sign == 1 else { throw Diagnostic("division by zero: 0 to a negative power", at: span) }
      return .exact(.zero)
    case .some(-1):
      throw Diagnostic("not a real number: a negative number to a fractional power", at: span)
    case 1?:
      return try approximate(base.real.power(exponent.real), at: span)
    default:
      throw Diagnostic("the base is too close to zero to tell its sign", at: span)
    }
  }

  /// b^(p/q) for a fraction p/q in lowest terms: exact when b is a perfect q-th power,
  /// otherwise the real q-th root (of either sign when q is odd) to the power p.
  func rationalPower(_ b: Rational, _ e: Rational, at span: SourceSpan) throws(Diagnostic) -> Number {
    if b.isZero {
      if e.isNegative { throw Diagnostic("division by zero: 0 to a negative power", at: span) }
      return .exact(.zero)
    }
    // An even root of a negative number is not real, however large the denominator.
    if b.isNegative && !e.denominator.isOdd {
      throw Diagnostic(
        "not a real number: an even root of a negative number", at: span,
        hint: "(-8)^(1/3) works; (-4)^(1/2) has no real value")
    }
    if let q = e.denominator.intValue, q < 1_000_000, let root = b.exactRoot(q), let p = e.numerator.intValue {
      return try integerPower(root, p, at: span)
    }
    if let q = e.denominator.intValue, let p = e.numerator.intValue, q < 1 << 30 {
      return try approximate(Real.rational(b).root(q).power(p), at: span)
    }
    // A huge denominator: |b|^e, with the sign of a negative base to an odd-denominator power.
    let magnitude = Real.rational(b.magnitude).power(Real.rational(e))
    return try approximate(b.isNegative && e.numerator.isOdd ? -magnitude : magnitude, at: span)
  }

  /// `b^n` exactly while the result stays within the digit limit, approximated past it.
  func integerPower(_ b: Rational, _ n: Int, at span: SourceSpan) throws(Diagnostic) -> Number {
    if b.isZero {
      if n < 0 { throw Diagnostic("division by zero: 0 to a negative power", at: span) }
      return .exact(.zero)
    }
    if b == .one { return .exact(.one) }
    if b == -1 { return .exact(n % 2 != 0 ? -1 : .one) }
    // |b| ≥ 2^(bitWidth−1) (or its reciprocal), so this is a lower bound on the result's size;
    // then a closer one, so that 10^1000000 is not computed to be refused: the result's width
    // is above |n|·log2 of the larger of numerator and denominator. (Multiplied out in
    // floating point: |n| may be near 2^63.)
    let log2Base: Double =
      switch b.storage {
      case .small(let bn, let bd): Glibc.log2(Double(Swift.max(bn.magnitude, bd.magnitude)))
      case .big: Swift.max(Evaluator.log2(b.numerator), Evaluator.log2(b.denominator))
      }
    if Double(b.bitWidth - 1) * Double(n.magnitude) > Double(maxBits)
      || Double(n.magnitude) * log2Base > Double(maxBits) + 1e-6
    {
      return try approximate(Real.rational(b).power(n), at: span)
    }
    let result = b.power(n)
    if result.bitWidth > maxBits { return try approximate(Real.rational(b).power(n), at: span) }
    return .exact(result)
  }

  func factorial(_ v: Number, at span: SourceSpan) throws(Diagnostic) -> Number {
    guard case .exact(let r) = v, r.isInteger, !r.isNegative else {
      throw Diagnostic("factorial needs a whole number ≥ 0", at: span, hint: "n! is 1·2·…·n")
    }
    // Past the digit limit, n! = Γ(n + 1), approximated.
    guard let n = r.intValue, Glibc.lgamma(Double(n) + 1) / M_LN10 < Double(digitLimit) else {
      return try approximate((Real.rational(r) + Real.rational(.one)).gamma, at: span)
    }
    // One GMP call: at the digit limit (about 205,000!) it takes some 13 ms, too short to be
    // worth interrupting; Ctrl-C is asked before and after it, with every node.
    return .exact(Rational(BigInteger.factorial(n)))
  }

  // MARK: Limits

  /// log2 |x| from its top bits: good to about 1e-15 relative.
  static func log2(_ x: BigInteger) -> Double {
    let (m, e) = x.binaryParts
    return Glibc.log2(Swift.abs(m)) + Double(e)
  }

  /// Whether an exact result of this many bits (at most) stays within the digit limit; past
  /// it the result is approximated instead.
  func fits(_ bits: Int) -> Bool { bits <= maxBits + 64 }

  /// An approximation, unless it is too large even for MPFR's exponents (about 10^(1.4·10^18)).
  func approximate(_ x: Real, at span: SourceSpan) throws(Diagnostic) -> Number {
    if x.overflows {
      throw Diagnostic(
        "the result is too large even to approximate (beyond about 10^(1.3e18))", at: span,
        hint: "exact results may have \(digitLimit.grouped) digits; larger ones are approximated")
    }
    if x.underflows {
      throw Diagnostic(
        "the result is too small even to approximate (below about 10^(-1.3e18))", at: span,
        hint: "exact results may have \(digitLimit.grouped) digits; smaller ones are approximated")
    }
    return .approx(x)
  }

  func checkSize(_ r: Rational, at span: SourceSpan) throws(Diagnostic) {
    if r.bitWidth > maxBits { throw tooLarge(at: span) }
  }

  func tooLarge(at span: SourceSpan) -> Diagnostic {
    Diagnostic(
      "the number would have more than \(digitLimit.grouped) digits", at: span,
      hint: "Reckon keeps every digit exact, up to \(digitLimit.grouped) digits")
  }
}
