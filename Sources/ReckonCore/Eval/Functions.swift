import BigInt

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The implementations of the built-in functions: exact where the answer is rational.
enum Functions {
  static func apply(
    _ name: String, _ values: [Value], arguments: [Expr], nameSpan: SourceSpan, evaluator: Evaluator
  ) throws(Diagnostic) -> Value {
    let x = values[0]
    let xSpan = arguments[0].span
    switch name {
    case "sqrt":
      guard !x.isNegative else {
        throw Diagnostic(
          "not a real number: the square root of a negative number", at: xSpan, hint: "sqrt needs x ≥ 0")
      }
      guard case .exact(let r) = x else { return try evaluator.approx(Glibc.sqrt(x.doubleValue), at: nameSpan) }
      if let root = r.exactRoot(2) { return .exact(root) }
      // Halve the binary exponent first, so values beyond a Double's range still work.
      let shift = (r.numerator.magnitude.bitWidth - r.denominator.magnitude.bitWidth) / 2 * 2
      let scaled = shift >= 0 ? r / Rational(BigInt(1) << shift) : r * Rational(BigInt(1) << -shift)
      return try evaluator.approx(Glibc.scalbn(Glibc.sqrt(scaled.doubleValue), shift / 2), at: nameSpan)
    case "abs":
      switch x {
      case .exact(let r): return .exact(r.magnitude)
      case .approx(let d): return .approx(Swift.abs(d))
      }
    case "round":
      var places = 0
      if values.count == 2 {
        guard case .exact(let p) = values[1], let n = p.intValue, Swift.abs(n) <= 1000 else {
          throw Diagnostic(
            "round's second argument must be a whole number of decimal places from -1000 to 1000",
            at: arguments[1].span)
        }
        places = n
      }
      return .exact(try exactValue(x, at: xSpan).rounded(places: places))
    case "floor":
      return .exact(try exactValue(x, at: xSpan).floor)
    case "ceil":
      return .exact(try exactValue(x, at: xSpan).ceiling)
    case "min", "max":
      var best = x
      for v in values.dropFirst() {
        let less = compare(v, best)
        if name == "min" ? less : compare(best, v) { best = v }
      }
      return best
    case "ln":
      try requirePositive(x, "ln", at: xSpan)
      if x == .exact(.one) { return .exact(.zero) }
      return try evaluator.approx(naturalLog(x), at: nameSpan)
    case "log":
      try requirePositive(x, "log", at: xSpan)
      var base: Value = .exact(10)
      if values.count == 2 {
        base = values[1]
        guard !base.isNegative && !base.isZero && base != .exact(.one) else {
          throw Diagnostic("the base of a logarithm must be positive and not 1", at: arguments[1].span)
        }
      }
      let estimate = naturalLog(x) / naturalLog(base)
      if case .exact(let r) = x, case .exact(let b) = base, let k = exactLog(r, base: b, estimate: estimate) {
        return .exact(k)
      }
      return try evaluator.approx(estimate, at: nameSpan)
    case "exp":
      if x.isZero { return .exact(.one) }
      return try evaluator.approx(Glibc.exp(x.doubleValue), at: nameSpan)
    case "sin":
      if x.isZero { return .exact(.zero) }
      return try evaluator.approx(Glibc.sin(x.doubleValue), at: nameSpan)
    case "cos":
      if x.isZero { return .exact(.one) }
      return try evaluator.approx(Glibc.cos(x.doubleValue), at: nameSpan)
    case "tan":
      if x.isZero { return .exact(.zero) }
      return try evaluator.approx(Glibc.tan(x.doubleValue), at: nameSpan)
    default:
      throw Diagnostic("unknown function '\(name)'", at: nameSpan)
    }
  }

  /// The exact logarithm p/q (q ≤ 12) of `x` to `base`, when `x^q = base^p`.
  static func exactLog(_ x: Rational, base: Rational, estimate: Double) -> Rational? {
    guard estimate.isFinite else { return nil }
    for q in 1...12 {
      let p = (estimate * Double(q)).rounded()
      guard Swift.abs(p / Double(q) - estimate) < 1e-9, let p = Int(exactly: p) else { continue }
      // Compare x^q with base^p only when both stay small.
      guard (x.bitWidth - 1) * q <= Evaluator.maxBits, (base.bitWidth - 1) * Swift.abs(p) <= Evaluator.maxBits
      else { return nil }
      if x.power(q) == base.power(p) { return Rational(Int64(p), Int64(q)) }
    }
    return nil
  }

  /// `a < b`, exactly when both are exact.
  static func compare(_ a: Value, _ b: Value) -> Bool {
    if case .exact(let x) = a, case .exact(let y) = b { return x < y }
    return a.doubleValue < b.doubleValue
  }

  static func exactValue(_ v: Value, at span: SourceSpan) throws(Diagnostic) -> Rational {
    switch v {
    case .exact(let r): return r
    case .approx(let d):
      guard let r = Rational(exactly: d) else { throw Diagnostic("not a finite number", at: span) }
      return r
    }
  }

  static func requirePositive(_ v: Value, _ name: String, at span: SourceSpan) throws(Diagnostic) {
    if v.isNegative || v.isZero {
      throw Diagnostic("\(name) is defined for positive numbers only", at: span, hint: "\(name)(x) needs x > 0")
    }
  }

  /// ln(x) for any positive value, even one too large or small for a Double.
  static func naturalLog(_ v: Value) -> Double {
    switch v {
    case .approx(let d): return Glibc.log(d)
    case .exact(let r):
      let shift = r.numerator.magnitude.bitWidth - r.denominator.magnitude.bitWidth
      if Swift.abs(shift) < 1000 { return Glibc.log(r.doubleValue) }
      let scaled = shift > 0 ? r / Rational(BigInt(1) << shift) : r * Rational(BigInt(1) << -shift)
      return Glibc.log(scaled.doubleValue) + Double(shift) * M_LN2
    }
  }
}
