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
      // Halve the binary exponent separately, so values beyond a Double's range still work.
      var (m, e) = r.binaryParts
      if e % 2 != 0 {
        m *= 2
        e -= 1
      }
      return try evaluator.approx(Glibc.scalbn(Glibc.sqrt(m), e / 2), at: nameSpan)
    case "abs":
      switch x {
      case .exact(let r): return .exact(r.magnitude)
      case .approx(let d): return .approx(Swift.abs(d))
      }
    case "round":
      var places = 0
      if values.count == 2 {
        guard case .exact(let p) = values[1], let n = p.intValue, n.magnitude <= 1000 else {
          throw Diagnostic(
            "round's second argument must be a whole number of decimal places from -1000 to 1000",
            at: arguments[1].span)
        }
        places = n
      }
      // Rounding an approximation gives an approximation: its digits are no better than before.
      let rounded = try exactValue(x, at: xSpan).rounded(places: places)
      return x.isExact ? .exact(rounded) : .approx(rounded.doubleValue)
    case "floor":
      let floor = try exactValue(x, at: xSpan).floor
      return x.isExact ? .exact(floor) : .approx(floor.doubleValue)
    case "ceil":
      let ceiling = try exactValue(x, at: xSpan).ceiling
      return x.isExact ? .exact(ceiling) : .approx(ceiling.doubleValue)
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
      if case .exact(let r) = x, case .exact(let b) = base,
        let k = exactLog(r, base: b, estimate: estimate, maxBits: evaluator.maxBits)
      {
        return .exact(k)
      }
      return try evaluator.approx(estimate, at: nameSpan)
    case "exp":
      if x.isZero { return .exact(.one) }
      let result = Glibc.exp(try finite(x, name, at: xSpan))
      if result == 0 { throw evaluator.tooSmall(at: nameSpan) }
      return try evaluator.approx(result, at: nameSpan)
    case "sin":
      if x.isZero { return .exact(.zero) }
      return try evaluator.approx(Glibc.sin(finite(x, name, at: xSpan)), at: nameSpan)
    case "cos":
      if x.isZero { return .exact(.one) }
      return try evaluator.approx(Glibc.cos(finite(x, name, at: xSpan)), at: nameSpan)
    case "tan":
      if x.isZero { return .exact(.zero) }
      return try evaluator.approx(Glibc.tan(finite(x, name, at: xSpan)), at: nameSpan)
    default:
      throw Diagnostic("unknown function '\(name)'", at: nameSpan)
    }
  }

  /// The exact logarithm p/q (q ≤ 12) of `x` to `base`, when `x^q = base^p`.
  static func exactLog(_ x: Rational, base: Rational, estimate: Double, maxBits: Int) -> Rational? {
    guard estimate.isFinite else { return nil }
    for q in 1...12 {
      let p = (estimate * Double(q)).rounded()
      guard Swift.abs(p / Double(q) - estimate) < 1e-9, let p = Int(exactly: p) else { continue }
      // Compare x^q with base^p only when both stay small.
      // (|p| first: (bits − 1)·|p| could overflow, and |Int.min| does.)
      guard p.magnitude <= UInt(maxBits), (x.bitWidth - 1) * q <= maxBits,
        (base.bitWidth - 1) * Int(p.magnitude) <= maxBits
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
      let (m, e) = r.binaryParts
      return Glibc.log(m) + Double(e) * M_LN2
    }
  }

  /// The argument as a Double, or an error when it is beyond a Double's range.
  static func finite(_ v: Value, _ name: String, at span: SourceSpan) throws(Diagnostic) -> Double {
    let d = v.doubleValue
    guard d.isFinite else {
      throw Diagnostic(
        "the argument of \(name) is too large to approximate (beyond about 1.8e308)", at: span,
        hint: "approximations are double-precision numbers")
    }
    return d
  }
}
