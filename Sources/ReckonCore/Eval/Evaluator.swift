#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Evaluates expressions exactly where it can, within limits that keep every answer fast.
public struct Evaluator: Sendable {
  /// Results with more decimal digits than this are refused (unless an evaluator is given
  /// another limit: the fuzzer explores with a smaller one, which costs less time per input).
  public static let maxDigits = 1_000_000

  /// An approximation is rounded to an exact whole number (`floor`, `round`, `idiv`) up to
  /// 2^this, about 315,000 digits: it takes π (say) to that many bits, 0.2 s, and the time
  /// grows faster than the size (`floor(10^999999*pi)`, at the digit limit, took 1.7 s).
  /// Past it, as past the digit limit, the value stays an approximation.
  public static let maxRoundingBits = 1 << 20

  /// This evaluator's limit on digits, and the same in bits.
  public let digitLimit: Int
  let maxBits: Int

  /// Asked before each step; a request stops the calculation with an error.
  public var interruption: Interruption

  public init(interruption: Interruption = .never, digitLimit: Int = Evaluator.maxDigits) {
    self.interruption = interruption
    self.digitLimit = digitLimit
    maxBits = Int((Double(digitLimit) * 3.321928094887362).rounded(.down))
  }

  /// Evaluates `expr`; errors carry the place of the operator or name at fault. A result of
  /// which not one digit can be worked out is an error too (`knowable`), never "≈ ?".
  public func evaluate(_ expr: Expr, in env: Environment) throws(Diagnostic) -> Value {
    let result = try value(of: expr, in: env)
    try knowable(result, at: expr.span)
    return result
  }

  /// Refuses an approximation of which no digit can be worked out within the precision
  /// bound (`Real.precisionCap`): printed, it could only be "≈ ?", and as `ans` or a
  /// variable it would be no number at all. (A value known to lie near 0 is an answer.)
  public func knowable(_ value: Value, at span: SourceSpan) throws(Diagnostic) {
    guard case .approx(let x) = value, x.digits(3) == .unknown else { return }
    throw Diagnostic(
      "no digit of the result can be worked out: somewhere on the way it loses more precision than Reckon "
        + "works with (about \((x.precisionCap(from: 64) * 3 / 10).grouped) digits)", at: span,
      hint: "this happens when nearly equal huge numbers are subtracted, or a tiny difference is magnified")
  }

  /// Evaluates one node of an expression (and what is under it).
  func value(of expr: Expr, in env: Environment) throws(Diagnostic) -> Value {
    if interruption.isRequested { throw Interruption.diagnostic(at: expr.span) }
    switch expr {
    case .number(let r, let span):
      try checkSize(r, at: span)
      return .exact(r)
    case .name(let name, let span):
      return try lookUp(name, at: span, in: env)
    case .call(let name, let nameSpan, let arguments, let span):
      return try call(name, nameSpan: nameSpan, arguments: arguments, span: span, in: env)
    case .negate(let inner, let span):
      return negate(try number(value(of: inner, in: env), at: span))
    case .power(let base, let exponent, let span):
      return try power(
        number(value(of: base, in: env), at: span), number(value(of: exponent, in: env), at: span), at: span)
    case .factorial(let inner, let span):
      return try factorial(number(value(of: inner, in: env), at: span), at: span)
    case .percent(let inner, let span):
      return try divide(number(value(of: inner, in: env), at: span), .exact(100), at: span)
    case .chain(let first, let links):
      var left = try value(of: first, in: env)
      var previous = first
      for link in links {
        let right = try value(of: link.operand, in: env)
        left = try apply(
          link, number(left, at: link.operatorSpan), number(right, at: link.operatorSpan), leftExpr: previous)
        previous = link.operand
      }
      return left
    case .comparison(let a, let comparison, let b, let span):
      let (x, y) = (try number(value(of: a, in: env), at: span), try number(value(of: b, in: env), at: span))
      let equality = comparison == .equal || comparison == .notEqual
      return .truth(comparison.holds(try compare(x, y, at: span, equality: equality)))
    }
  }

  /// `v`, when it is a number; true and false are not.
  func number(_ v: Value, at span: SourceSpan) throws(Diagnostic) -> Value {
    guard case .truth(let t) = v else { return v }
    throw Diagnostic(
      "\(t ? "true" : "false") is not a number: it cannot be calculated with", at: span,
      hint: "a comparison (a < b) or a test (isprime) gives true or false")
  }

  /// -1, 0 or 1 as `a` is below, equal to or above `b`: exactly for exact values and
  /// multiples of π, by working out digits for approximations (an error when they agree to
  /// every digit that can be worked out).
  public func compare(_ a: Value, _ b: Value, at span: SourceSpan, equality: Bool = false) throws(Diagnostic) -> Int {
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

  // MARK: Names

  func lookUp(_ name: String, at span: SourceSpan, in env: Environment) throws(Diagnostic) -> Value {
    if Environment.answerNames.contains(name) {
      guard let answer = env.answer else {
        throw Diagnostic(
          span.start == span.end ? "there is no previous result to continue from" : "there is no previous result yet",
          at: span, hint: "ans is the last result; calculate something first")
      }
      return answer
    }
    if let value = env.variables[name] { return value }
    if let value = Builtins.constants[name] { return value }
    if let f = Builtins.function(named: name) {
      throw Diagnostic("\(name) is a function", at: span, hint: "call it with parentheses: \(f.usage)")
    }
    let known = Array(env.variables.keys) + Builtins.constantNames + Builtins.functionNames + ["ans"]
    let guess = Suggestions.closest(to: name, in: known)
    throw Diagnostic(
      "unknown name \(Diagnostic.quoted(name))" + (guess.map { "; did you mean '\($0)'?" } ?? ""), at: span,
      hint: "define it first, for example \(Diagnostic.isLong(name) ? "x" : name) = 5")
  }

  func call(
    _ name: String, nameSpan: SourceSpan, arguments: [Expr], span: SourceSpan, in env: Environment
  ) throws(Diagnostic) -> Value {
    guard let function = Builtins.function(named: name) else {
      // A variable or constant followed by "(": implicit multiplication, x(2) = x·2.
      if Environment.answerNames.contains(name) || env.variables[name] != nil || Builtins.constants[name] != nil {
        guard arguments.count == 1 else {
          throw Diagnostic("\(Diagnostic.quoted(name)) is not a function", at: nameSpan, hint: "write * to multiply")
        }
        return try multiply(lookUp(name, at: nameSpan, in: env), value(of: arguments[0], in: env), at: nameSpan)
      }
      let guess = Suggestions.closest(to: name, in: Builtins.functionNames)
      throw Diagnostic(
        "unknown function \(Diagnostic.quoted(name))" + (guess.map { "; did you mean '\($0)'?" } ?? ""), at: nameSpan,
        hint: "type 'help functions' for the list")
    }
    guard function.arity.contains(arguments.count) else {
      let expected =
        function.arity.count == 1
        ? "\(function.arity.lowerBound) argument\(function.arity.lowerBound == 1 ? "" : "s")"
        : "\(function.arity.lowerBound) to \(function.arity.upperBound) arguments"
      throw Diagnostic(
        "\(name) takes \(expected), not \(arguments.count)", at: span, hint: "usage: \(function.usage)")
    }
    var values: [Value] = []
    for argument in arguments { values.append(try number(value(of: argument, in: env), at: argument.span)) }
    return try Functions.apply(name, values, arguments: arguments, nameSpan: nameSpan, evaluator: self)
  }

  // MARK: Operators

  func apply(_ link: Expr.Link, _ a: Value, _ b: Value, leftExpr: Expr) throws(Diagnostic) -> Value {
    let span = link.operatorSpan
    switch link.op {
    case .add:
      if link.operand.isPercentage { return try multiply(a, add(.exact(1), b, at: span), at: span) }
      return try add(a, b, at: span)
    case .subtract:
      if link.operand.isPercentage { return try multiply(a, add(.exact(1), negate(b), at: span), at: span) }
      return try add(a, negate(b), at: span)
    case .multiply, .implicitMultiply:
      return try multiply(a, b, at: span)
    case .of:
      guard leftExpr.isPercentage else {
        throw Diagnostic("'of' needs a percentage before it", at: span, hint: "for example: 15% of 80")
      }
      return try multiply(a, b, at: span)
    case .divide:
      return try divide(a, b, at: span)
    case .modulo:
      return try modulo(a, b, at: span)
    }
  }

  public func negate(_ v: Value) -> Value {
    switch v {
    case .exact(let r): .exact(-r)
    case .multiple(let r, let c): .multiple(-r, c)
    case .approx(let x): .approx(-x)
    case .truth: v
    }
  }

  public func add(_ a: Value, _ b: Value, at span: SourceSpan) throws(Diagnostic) -> Value {
    _ = (try number(a, at: span), try number(b, at: span))
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

  public func multiply(_ a: Value, _ b: Value, at span: SourceSpan) throws(Diagnostic) -> Value {
    _ = (try number(a, at: span), try number(b, at: span))
    if a.isZero || b.isZero { return .exact(.zero) }  // 0·π is exactly 0
    if let (x, c) = a.symbolic, let (y, d) = b.symbolic, fits(Rational.productBitWidthBound(x, y)) {
      return .product(x * y, Value.Constants(pi: c.pi + d.pi, e: c.e + d.e))
    }
    return try approximate(a.real * b.real, at: span)
  }

  public func divide(_ a: Value, _ b: Value, at span: SourceSpan) throws(Diagnostic) -> Value {
    _ = (try number(a, at: span), try number(b, at: span))
    try requireNonZero(b, at: span)
    if a.isZero { return .exact(.zero) }
    if let (x, c) = a.symbolic, let (y, d) = b.symbolic, fits(Rational.quotientBitWidthBound(x, y)) {
      // (3π)/(2π) is 1.5.
      return .product(x / y, Value.Constants(pi: c.pi - d.pi, e: c.e - d.e))
    }
    return try approximate(a.real / b.real, at: span)
  }

  /// `x mod y`, the floored remainder x − y·⌊x/y⌋.
  func modulo(_ a: Value, _ b: Value, at span: SourceSpan) throws(Diagnostic) -> Value {
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
  func requireNonZero(_ v: Value, at span: SourceSpan) throws(Diagnostic) {
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
    _ v: Value, at span: SourceSpan, what: String, _ round: (Rational) -> Rational
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

  func power(_ base: Value, _ exponent: Value, at span: SourceSpan) throws(Diagnostic) -> Value {
    if exponent.isZero { return .exact(.one) }  // x^0 is 1 exactly, even for ≈ x
    if case .exact(let e) = exponent, let n = e.isInteger ? e.intValue : nil {
      switch base {
      case .exact(let b):
        return try integerPower(b, n, at: span)
      case .multiple(let r, let c):
        // (2π)^3 is 8π³, as long as its parts stay within the limits.
        if n.magnitude <= Value.Constants.maxPower, r.bitWidth * Int(n.magnitude) <= maxBits,
          case .exact(let rn) = try integerPower(r, n, at: span)
        {
          return .product(rn, Value.Constants(pi: c.pi * n, e: c.e * n))
        }
        return try approximate(base.real.power(n), at: span)
      case .approx(let x):
        if n < 0 { try requireNonZero(base, at: span) }
        return try approximate(x.power(n), at: span)
      case .truth:
        return try number(base, at: span)
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
    if base == Value.e { return try approximate(exponent.real.exp, at: span) }
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
  func rationalPower(_ b: Rational, _ e: Rational, at span: SourceSpan) throws(Diagnostic) -> Value {
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
  func integerPower(_ b: Rational, _ n: Int, at span: SourceSpan) throws(Diagnostic) -> Value {
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

  func factorial(_ v: Value, at span: SourceSpan) throws(Diagnostic) -> Value {
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
  func approximate(_ x: Real, at span: SourceSpan) throws(Diagnostic) -> Value {
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

extension Int {
  /// With thousands separators: 100,000.
  public var grouped: String {
    let digits = String(self.magnitude)
    var out = ""
    for (i, c) in digits.enumerated() {
      if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
      out.append(c)
    }
    return (self < 0 ? "-" : "") + out
  }
}
