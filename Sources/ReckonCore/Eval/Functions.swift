#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The implementations of the built-in functions: exact where the answer is (a rational,
/// or a rational multiple of π), approximated with MPFR to any precision where it is not.
enum Functions {
  /// `name` applied to the values of `arguments`: the place where a function meets values.
  static func apply(
    _ name: String, _ values: [Value], arguments: [Expr], nameSpan: SourceSpan, evaluator: Evaluator
  ) throws(Diagnostic) -> Value {
    if let result = try withUnits(name, values, arguments: arguments, nameSpan: nameSpan, evaluator: evaluator) {
      return result
    }
    var numbers: [Number] = []
    for (value, argument) in zip(values, arguments) { numbers.append(try evaluator.plain(value, at: argument.span)) }
    if name == "isprime" {
      let n = try integer(numbers[0], name, at: arguments[0].span)
      guard n.bitWidth <= 10_000 else {
        throw Diagnostic("isprime works on whole numbers of up to 3,000 digits", at: arguments[0].span)
      }
      return .truth(n > 1 && n.isProbablyPrime)
    }
    return .number(try apply(name, numbers, arguments: arguments, nameSpan: nameSpan, evaluator: evaluator))
  }

  /// A function applied to a quantity that has a unit, as its `Builtins.Units` rule says:
  /// roots of units whose powers they divide (√(9 m²) is 3 m), abs and the roundings in the
  /// unit the quantity is in, min and max of one dimension in the first's unit. Nil for the
  /// functions of plain numbers (an angle in radians, a ratio as its number).
  static func withUnits(
    _ name: String, _ values: [Value], arguments: [Expr], nameSpan: SourceSpan, evaluator: Evaluator
  ) throws(Diagnostic) -> Value? {
    guard let first = values.first?.quantity, !first.unit.isNone, let function = Builtins.function(named: name)
    else { return nil }
    let units = evaluator.units
    let span = arguments[0].span
    switch function.units {
    case .plain:
      return nil
    case .root(let n):
      if units.dimension(of: first.unit).isNone && units.kind(of: first.unit) != "angle" { return nil }
      return try evaluator.power(values[0], .rational(Rational(1, Int64(n))), at: span)
    case .keepsUnit:
      // A ratio is its number (round(37.5%) is 0); other units are rounded in the unit shown.
      if units.kind(of: first.unit) == "ratio" && name != "abs" { return nil }
      if units.scale(of: first.unit) != nil && name == "abs" {
        throw Diagnostic("a temperature on a scale has no absolute value", at: span, hint: "convert it to K first")
      }
      var rest: [Number] = []
      for (value, argument) in zip(values, arguments).dropFirst() {
        rest.append(try evaluator.plain(value, at: argument.span))
      }
      let number = try apply(
        name, [first.number] + rest, arguments: arguments, nameSpan: nameSpan, evaluator: evaluator)
      return .quantity(Quantity(number, first.unit))
    case .sameDimension:
      var best = first
      for (value, argument) in zip(values, arguments).dropFirst() {
        let q = try evaluator.quantity(value, at: argument.span)
        let other = try evaluator.inUnitOf(first, q, "compare", at: argument.span)
        let order = try evaluator.compare(
          other, try evaluator.inUnitOf(first, best, "compare", at: argument.span),
          at: argument.span)
        if name == "min" ? order < 0 : order > 0 { best = Quantity(other, first.unit) }
      }
      return .quantity(
        best.unit == first.unit ? best : Quantity(try evaluator.convert(best, to: first.unit, at: span), first.unit))
    }
  }

  /// `name` applied to plain numbers.
  static func apply(
    _ name: String, _ values: [Number], arguments: [Expr], nameSpan: SourceSpan, evaluator: Evaluator
  ) throws(Diagnostic) -> Number {
    let x = values[0]
    let xSpan = arguments[0].span
    switch name {
    case "sqrt":
      return try root(x, 2, name, at: xSpan, evaluator: evaluator)
    case "cbrt":
      return try root(x, 3, name, at: xSpan, evaluator: evaluator)
    case "abs":
      switch x {
      case .exact(let r): return .exact(r.magnitude)
      case .multiple(let r, let c): return .multiple(r.magnitude, c)
      case .approx(let a):
        if let sign = a.sign { return sign < 0 ? .approx(-a) : x }
        return .approx(a.absolute)
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
      // Exact whenever the rounding can be told: round(π, 2) is 3.14. (A value too large for
      // its integer part to be exact stays as it is: rounding changes none of its digits.)
      return try evaluator.exactly(x, at: xSpan, what: "round") { $0.rounded(places: places) }.map { .exact($0) } ?? x
    case "floor":
      return try evaluator.exactly(x, at: xSpan, what: "floor") { $0.floor }.map { .exact($0) } ?? x
    case "ceil":
      return try evaluator.exactly(x, at: xSpan, what: "ceil") { $0.ceiling }.map { .exact($0) } ?? x
    case "trunc":
      return try evaluator.exactly(x, at: xSpan, what: "trunc") { $0.truncated }.map { .exact($0) } ?? x
    case "min", "max":
      var best = x
      for (v, argument) in zip(values, arguments).dropFirst() {
        let order = try evaluator.compare(v, best, at: argument.span)
        if name == "min" ? order < 0 : order > 0 { best = v }
      }
      return best
    case "ln":
      try requirePositive(x, name, at: xSpan)
      if x == .exact(.one) { return .exact(.zero) }
      // ln(e^k) is k.
      if case .multiple(let r, let c) = x, r == .one, c.pi == 0 { return .exact(Rational(c.e)) }
      return try evaluator.approximate(x.real.ln, at: nameSpan)
    case "log", "log2":
      try requirePositive(x, name, at: xSpan)
      var base: Number = .exact(name == "log2" ? 2 : 10)
      if values.count == 2 {
        base = values[1]
        guard base.sign == 1 && base != .exact(.one) else {
          throw Diagnostic("the base of a logarithm must be positive and not 1", at: arguments[1].span)
        }
      }
      if case .exact(let r) = x, case .exact(let b) = base,
        let k = exactLog(r, base: b, maxBits: evaluator.maxBits)
      {
        return .exact(k)
      }
      if base == .e { return try apply("ln", [x], arguments: arguments, nameSpan: nameSpan, evaluator: evaluator) }
      return try evaluator.approximate(x.real.ln / base.real.ln, at: nameSpan)
    case "exp":
      if x.isZero { return .exact(.one) }
      // e^k stays exact for whole k.
      if case .exact(let r) = x, let k = r.intValue, k.magnitude <= Number.Constants.maxPower {
        return .product(.one, Number.Constants(e: k))
      }
      return try evaluator.approximate(x.real.exp, at: nameSpan)
    case "sin", "cos", "tan":
      return try trigonometric(name, x, at: xSpan, nameSpan: nameSpan, evaluator: evaluator)
    case "asin", "acos":
      if case .exact(let r) = x {
        guard r.magnitude <= .one else {
          throw Diagnostic("\(name) is defined from -1 to 1 only", at: xSpan, hint: "\(name)(x) needs -1 ≤ x ≤ 1")
        }
        if let exact = (name == "asin" ? exactArcsine : exactArccosine)(r) { return exact }
      } else {
        try requireWithin(x, name, closed: true, at: xSpan, evaluator: evaluator)
      }
      return try evaluator.approximate(name == "asin" ? x.real.asin : x.real.acos, at: nameSpan)
    case "atan":
      if case .exact(let r) = x {
        if r.isZero { return .exact(.zero) }
        if r.magnitude == .one { return .product(Rational(r.isNegative ? -1 : 1, 4), Number.Constants(pi: 1)) }
      }
      return try evaluator.approximate(x.real.atan, at: nameSpan)
    case "atan2":
      return try arctangent2(x, values[1], at: SourceSpan(xSpan.start, arguments[1].span.end), evaluator: evaluator)
    case "sinh", "tanh", "asinh":
      if x.isZero { return .exact(.zero) }
      let real = x.real
      return try evaluator.approximate(
        name == "sinh" ? real.sinh : name == "tanh" ? real.tanh : real.asinh, at: nameSpan)
    case "cosh":
      if x.isZero { return .exact(.one) }
      return try evaluator.approximate(x.real.cosh, at: nameSpan)
    case "acosh":
      if x == .exact(.one) { return .exact(.zero) }
      guard let order = try? evaluator.compare(x, .exact(.one), at: xSpan), order >= 0 else {
        throw Diagnostic("acosh is defined for x ≥ 1 only", at: xSpan)
      }
      // Near 1, from the exact x − 1: acosh x = 2·asinh √((x − 1)/2). Through x itself,
      // acosh(1 + 10^-999999) would be "near 0": 1 + 10^-999999 rounds to 1.
      if case .exact(let r) = x, r < 2 {
        let half = Real.rational((r - .one) / 2)
        return try evaluator.approximate(Real.rational(2) * half.root(2).asinh, at: nameSpan)
      }
      return try evaluator.approximate(x.real.acosh, at: nameSpan)
    case "atanh":
      if x.isZero { return .exact(.zero) }
      if case .exact(let r) = x {
        guard r.magnitude < .one else {
          throw Diagnostic(
            "atanh is defined from -1 to 1 only, the ends left out", at: xSpan, hint: "atanh(x) needs -1 < x < 1")
        }
        // Near ±1, from the exact (1 + x)/(1 − x): atanh x = ½·ln((1 + x)/(1 − x)). Through x
        // itself, atanh(1 − 10^-999999) could not be bounded: x rounds to 1.
        if r.magnitude > Rational(1, 2) {
          let (a, b) = (r.numerator, r.denominator)
          let ratio = Rational(numerator: b + a, denominator: b - a)
          return try evaluator.approximate(Real.rational(ratio).ln * Real.rational(Rational(1, 2)), at: nameSpan)
        }
      } else {
        try requireWithin(x, name, closed: false, at: xSpan, evaluator: evaluator)
      }
      return try evaluator.approximate(x.real.atanh, at: nameSpan)
    case "gcd", "lcm", "bitand", "bitor", "bitxor":
      var result = try integer(x, name, at: xSpan)
      for (v, argument) in zip(values, arguments).dropFirst() {
        let n = try integer(v, name, at: argument.span)
        switch name {
        case "gcd": result = BigInteger.gcd(result, n)
        case "lcm":
          let g = BigInteger.gcd(result, n)
          if !g.isZero && (result / g).bitWidth + n.bitWidth > evaluator.maxBits {
            throw Diagnostic(
              "the least common multiple would have more than \(evaluator.digitLimit.grouped) digits", at: argument.span
            )
          }
          result = BigInteger.lcm(result, n)
        case "bitand": result = result & n
        case "bitor": result = result | n
        default: result = result ^ n
        }
      }
      return .exact(Rational(result))
    case "bitnot":
      return .exact(Rational(~(try integer(x, name, at: xSpan))))
    case "shl", "shr":
      let a = try integer(x, name, at: xSpan)
      let shift = try integer(values[1], name, at: arguments[1].span)
      guard !shift.isNegative else {
        throw Diagnostic("\(name) shifts by a whole number of bits ≥ 0", at: arguments[1].span)
      }
      guard let n = shift.intValue else {
        // Past 2^63 bits: shr leaves the sign (floor(a / 2^n)); shl passes any limit.
        if name == "shr" { return .exact(a.isNegative ? -1 : 0) }
        if a.isZero { return .exact(.zero) }
        throw Diagnostic("the result would have more than \(evaluator.digitLimit.grouped) digits", at: nameSpan)
      }
      if name == "shr" { return .exact(Rational(a >> n)) }
      guard a.isZero || n <= evaluator.maxBits - a.bitWidth else {
        throw Diagnostic("the result would have more than \(evaluator.digitLimit.grouped) digits", at: nameSpan)
      }
      return .exact(Rational(a << n))
    case "binom", "nCr":
      return try binomial(x, values[1], arguments: arguments, nameSpan: nameSpan, evaluator: evaluator)
    case "nPr", "perm":
      return try permutations(x, values[1], arguments: arguments, nameSpan: nameSpan, evaluator: evaluator)
    case "idiv", "rem":
      let b = values[1]
      try evaluator.requireNonZero(b, at: arguments[1].span)
      let quotient = try evaluator.divide(x, b, at: nameSpan)
      let rule: (Rational) -> Rational = name == "idiv" ? { $0.floor } : { $0.truncated }
      guard let whole = try evaluator.exactly(quotient, at: nameSpan, what: name, rule) else {
        throw Diagnostic("\(name): the quotient is too large for its whole part to be exact", at: nameSpan)
      }
      if name == "idiv" { return .exact(whole) }
      return try evaluator.add(x, evaluator.negate(evaluator.multiply(b, .exact(whole), at: nameSpan)), at: nameSpan)
    default:
      throw Diagnostic("unknown function \(Diagnostic.quoted(name))", at: nameSpan)
    }
  }

  // MARK: Whole numbers

  /// The value as a whole number, or an error naming the function that needs one.
  static func integer(_ v: Number, _ name: String, at span: SourceSpan) throws(Diagnostic) -> BigInteger {
    guard case .exact(let r) = v, r.isInteger else {
      throw Diagnostic("\(name) needs whole numbers", at: span, hint: "for example: \(name)(12, 18)")
    }
    return r.numerator
  }

  /// At least ln C(m, k) (ln m!/(m − k)! when `choose` is false) for m ≥ k ≥ 0: what decides
  /// whether the exact value may be worked out. From lgamma while m is below 2^50, where
  /// its cancellation costs nothing that matters; past it from j·ln m (j = min(k, m − k)),
  /// which is above ln C(m, j) = Σ ln(m − i) − ln j!. (From lgamma alone, C(10^300, 10^6)
  /// came out at 0 digits, and its 300 million were worked out exactly: 134 s and 958 MB.)
  static func logSize(_ m: BigInteger, _ k: BigInteger, choose: Bool) -> Double {
    let j = choose ? min(k, m - k) : k
    if m.bitWidth <= 50 {
      let (md, jd) = (m.doubleValue, j.doubleValue)
      return Glibc.lgamma(md + 1) - Glibc.lgamma(md - jd + 1) - (choose ? Glibc.lgamma(jd + 1) : 0)
    }
    return j.doubleValue * naturalLog(m) * (1 + 1e-12) - (choose ? Glibc.lgamma(j.doubleValue + 1) : 0)
  }

  /// ln m for m ≥ 1, to double precision, for any width (`doubleValue` stops at 2^1024).
  static func naturalLog(_ m: BigInteger) -> Double {
    let shift = max(0, m.bitWidth - 64)
    return Glibc.log((m >> shift).doubleValue) + Double(shift) * M_LN2
  }

  /// C(n, k): for any whole n (C(−n, k) = (−1)^k·C(n + k − 1, k)) and k ≥ 0 (0 for k < 0);
  /// exact up to the digit limit, approximated from Γ past it.
  static func binomial(
    _ x: Number, _ y: Number, arguments: [Expr], nameSpan: SourceSpan, evaluator: Evaluator
  ) throws(Diagnostic) -> Number {
    let n = try integer(x, "binom", at: arguments[0].span)
    let kk = try integer(y, "binom", at: arguments[1].span)
    if kk.isNegative { return .exact(.zero) }
    guard let k = kk.intValue else {
      throw Diagnostic("binom's second number is too large (at most 2^63)", at: arguments[1].span)
    }
    if !n.isNegative && kk > n { return .exact(.zero) }
    // The size of C(m, k) with m ≥ k ≥ 0, m = n or, for negative n, k − n − 1.
    let m = n.isNegative ? BigInteger(k) - n - 1 : n
    let digits = logSize(m, BigInteger(k), choose: true) / M_LN10
    if digits < Double(evaluator.digitLimit) - 1 {
      return .exact(Rational(n.binomial(k)))
    }
    let mr = Real.rational(Rational(m))
    let magnitude: Real
    if let few = min(BigInteger(k), m - BigInteger(k)).intValue, few <= maxProductTerms {
      // Few terms (C(10^999999, 2)): the product m(m − 1)…(m − j + 1)/j!, j = min(k, m − k).
      // Through ln Γ, m's own ln Γ would be needed to a million digits.
      magnitude = fallingProduct(mr, few) / Real.rational(Rational(BigInteger.product(1, through: few)))
    } else {
      let lnValue =
        (mr + Real.rational(.one)).lngamma - Real.rational(Rational(k + 1)).lngamma
        - (mr - Real.rational(Rational(k)) + Real.rational(.one)).lngamma
      magnitude = lnValue.exp
    }
    return try evaluator.approximate(n.isNegative && k % 2 == 1 ? -magnitude : magnitude, at: nameSpan)
  }

  /// Binomials and permutations past the digit limit with at most this many terms are
  /// approximated as a product of their terms rather than from ln Γ.
  static let maxProductTerms = 10_000

  /// m(m − 1)…(m − j + 1) as a recipe, multiplied as a balanced tree (so its depth is about
  /// 2·log2 j, not j), every term sharing the one leaf m.
  static func fallingProduct(_ m: Real, _ j: Int) -> Real {
    func product(_ lo: Int, _ hi: Int) -> Real {
      if lo == hi { return lo == 0 ? m : m - Real.rational(Rational(lo)) }
      let mid = lo + (hi - lo) / 2
      return product(lo, mid) * product(mid + 1, hi)
    }
    return j == 0 ? Real.rational(.one) : product(0, j - 1)
  }

  /// n!/(n−r)! for whole n ≥ r ≥ 0: exact up to the digit limit, approximated past it.
  static func permutations(
    _ x: Number, _ y: Number, arguments: [Expr], nameSpan: SourceSpan, evaluator: Evaluator
  ) throws(Diagnostic) -> Number {
    let n = try integer(x, "nPr", at: arguments[0].span)
    let r = try integer(y, "nPr", at: arguments[1].span)
    guard !r.isNegative, !n.isNegative, r <= n else {
      throw Diagnostic(
        "nPr needs whole numbers n ≥ r ≥ 0", at: SourceSpan(arguments[0].span.start, arguments[1].span.end))
    }
    let digits = logSize(n, r, choose: false) / M_LN10
    if digits < Double(evaluator.digitLimit) - 1, let top = n.intValue, let count = r.intValue {
      return .exact(Rational(BigInteger.product(top - count + 1, through: top)))
    }
    let nr = Real.rational(Rational(n))
    if let few = r.intValue, few <= maxProductTerms {
      return try evaluator.approximate(fallingProduct(nr, few), at: nameSpan)
    }
    let lnValue = (nr + Real.rational(.one)).lngamma - (nr - Real.rational(Rational(r)) + Real.rational(.one)).lngamma
    return try evaluator.approximate(lnValue.exp, at: nameSpan)
  }

  // MARK: Roots

  /// The n-th root (n = 2 or 3): exact for perfect powers (and for (4π²), 2π), approximated
  /// otherwise. An even root needs x ≥ 0.
  static func root(_ x: Number, _ n: Int, _ name: String, at span: SourceSpan, evaluator: Evaluator) throws(Diagnostic)
    -> Number
  {
    if n % 2 == 0 && x.isNegative {
      throw Diagnostic(
        "not a real number: the square root of a negative number", at: span, hint: "\(name) needs x ≥ 0")
    }
    if let (r, c) = x.symbolic, c.pi % n == 0, c.e % n == 0, let root = r.exactRoot(n) {
      return .product(root, Number.Constants(pi: c.pi / n, e: c.e / n))
    }
    return try evaluator.approximate(x.real.root(n), at: span)
  }

  // MARK: Trigonometry

  static func trigonometric(
    _ name: String, _ x: Number, at span: SourceSpan, nameSpan: SourceSpan, evaluator: Evaluator
  ) throws(Diagnostic) -> Number {
    if x.isZero { return .exact(name == "cos" ? .one : .zero) }
    // A rational multiple of π: exact where the answer is rational (Niven's theorem says
    // these are the only places it is).
    if case .multiple(let r, let c) = x, c == Number.Constants(pi: 1) {
      switch name {
      case "sin": if let s = sineOfMultipleOfPi(r) { return .exact(s) }
      case "cos": if let s = sineOfMultipleOfPi(r + Rational(1, 2)) { return .exact(s) }
      default:
        let t = r - r.floor  // tan has period π
        if t.isZero { return .exact(.zero) }
        if t == Rational(1, 4) { return .exact(.one) }
        if t == Rational(3, 4) { return .exact(-1) }
        if t == Rational(1, 2) {
          throw Diagnostic("tan is not defined at π/2 + kπ (its cosine is 0)", at: span)
        }
      }
    }
    let real = x.real
    // Reducing an argument modulo 2π needs π to as many bits as the argument has: refuse
    // arguments past 2^(the digit limit in bits), or 2^131,072 (about 10^39,457) at most.
    let limit = min(evaluator.maxBits, 1 << 17)
    if real.mayExceed(bits: limit) {
      throw Diagnostic(
        "the argument of \(name) is too large: beyond 2^\(limit.grouped), reducing it modulo 2π would need π to "
          + "more digits than Reckon works with", at: span)
    }
    if name == "tan" && real.cos.sign == nil {
      throw Diagnostic("tan is not defined at π/2 + kπ, and this is too close to one to tell", at: span)
    }
    return try evaluator.approximate(name == "sin" ? real.sin : name == "cos" ? real.cos : real.tan, at: nameSpan)
  }

  /// sin(rπ) when it is rational: 0, ±1/2 or ±1; nil otherwise.
  static func sineOfMultipleOfPi(_ r: Rational) -> Rational? {
    let t = r - Rational(2) * (r / Rational(2)).floor  // in [0, 2): sin has period 2π
    switch t {
    case .zero, .one: return .zero
    case Rational(1, 2): return .one
    case Rational(3, 2): return -1
    case Rational(1, 6), Rational(5, 6): return Rational(1, 2)
    case Rational(7, 6), Rational(11, 6): return Rational(-1, 2)
    default: return nil
    }
  }

  static func exactArcsine(_ r: Rational) -> Number? {
    switch r {
    case .zero: .exact(.zero)
    case Rational(1, 2): .product(Rational(1, 6), Number.Constants(pi: 1))
    case Rational(-1, 2): .product(Rational(-1, 6), Number.Constants(pi: 1))
    case .one: .product(Rational(1, 2), Number.Constants(pi: 1))
    case -1: .product(Rational(-1, 2), Number.Constants(pi: 1))
    default: nil
    }
  }

  static func exactArccosine(_ r: Rational) -> Number? {
    switch r {
    case .one: .exact(.zero)
    case Rational(1, 2): .product(Rational(1, 3), Number.Constants(pi: 1))
    case .zero: .product(Rational(1, 2), Number.Constants(pi: 1))
    case Rational(-1, 2): .product(Rational(2, 3), Number.Constants(pi: 1))
    case -1: .pi
    default: nil
    }
  }

  /// atan2(y, x): the angle of the point (x, y), exact on the axes and the diagonals.
  static func arctangent2(_ y: Number, _ x: Number, at span: SourceSpan, evaluator: Evaluator) throws(Diagnostic)
    -> Number
  {
    if y.isZero && x.isZero { throw Diagnostic("atan2(0, 0) is not defined: the point (0, 0) has no angle", at: span) }
    let quarter = Number.Constants(pi: 1)
    if y.isZero, let sign = x.sign { return sign > 0 ? .exact(.zero) : .pi }
    if x.isZero, let sign = y.sign { return .product(Rational(Int64(sign), 2), quarter) }
    if case .exact(let a) = y, case .exact(let b) = x, a.magnitude == b.magnitude {
      let k: Int64 = b.isNegative ? 3 : 1
      return .product(Rational(a.isNegative ? -k : k, 4), quarter)
    }
    if x.sign == nil && y.sign == nil {
      throw Diagnostic("atan2 of a point too close to (0, 0) to tell its angle", at: span)
    }
    return try evaluator.approximate(Real.atan2(y.real, x.real), at: span)
  }

  // MARK: Helpers

  /// The exact logarithm p/q (q ≤ 12) of `x` to `base`, when `x^q = base^p`.
  static func exactLog(_ x: Rational, base: Rational, maxBits: Int) -> Rational? {
    let estimate = naturalLog(x) / naturalLog(base)
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

  /// ln(r) for a positive rational of any size, as a Double (an estimate for `exactLog`).
  static func naturalLog(_ r: Rational) -> Double {
    let (m, e) = r.binaryParts
    return Glibc.log(m) + Double(e) * M_LN2
  }

  /// Refuses an x outside [−1, 1] (`closed`) or (−1, 1), comparing x itself with ±1 (its
  /// square, the way it was done before, passed the digit limit for a wide x and refused
  /// atanh(1 − 10^-999999)), and says so when x is too close to ±1 to tell.
  static func requireWithin(
    _ x: Number, _ name: String, closed: Bool, at span: SourceSpan, evaluator: Evaluator
  ) throws(Diagnostic) {
    let only = closed ? "from -1 to 1 only" : "from -1 to 1 only, the ends left out"
    let hint = "\(name)(x) needs \(closed ? "-1 ≤ x ≤ 1" : "-1 < x < 1")"
    for (end, side) in [(-1, 1), (1, -1)] {
      let order: Int
      do {
        order = try evaluator.compare(x, .exact(Rational(end)), at: span)
      } catch {
        throw Diagnostic(
          "\(name) is defined \(only), and this is too close to \(end) to tell which side it is on", at: span,
          hint: hint)
      }
      if order == -side || (order == 0 && !closed) {
        throw Diagnostic("\(name) is defined \(only)", at: span, hint: hint)
      }
    }
  }

  static func requirePositive(_ v: Number, _ name: String, at span: SourceSpan) throws(Diagnostic) {
    guard v.sign == 1 else {
      throw Diagnostic(
        v.sign == nil
          ? "\(name) is defined for positive numbers only, and this one is too close to 0 to tell"
          : "\(name) is defined for positive numbers only",
        at: span, hint: "\(name)(x) needs x > 0")
    }
  }
}
