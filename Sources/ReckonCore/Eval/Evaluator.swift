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

  /// Evaluates `expr`; errors carry the place of the operator or name at fault.
  public func evaluate(_ expr: Expr, in env: Environment) throws(Diagnostic) -> Value {
    if interruption.isRequested { throw Interruption.diagnostic(at: expr.span) }
    switch expr {
    case .number(let r, let span):
      try checkSize(r, at: span)
      return .exact(r)
    case .name(let name, let span):
      return try lookUp(name, at: span, in: env)
    case .call(let name, let nameSpan, let arguments, let span):
      return try call(name, nameSpan: nameSpan, arguments: arguments, span: span, in: env)
    case .negate(let inner, _):
      return try negate(evaluate(inner, in: env))
    case .power(let base, let exponent, let span):
      return try power(evaluate(base, in: env), evaluate(exponent, in: env), at: span)
    case .factorial(let inner, let span):
      return try factorial(evaluate(inner, in: env), at: span)
    case .percent(let inner, let span):
      return try divide(evaluate(inner, in: env), .exact(100), at: span)
    case .chain(let first, let links):
      var left = try evaluate(first, in: env)
      var previous = first
      for link in links {
        let right = try evaluate(link.operand, in: env)
        left = try apply(link, left, right, leftExpr: previous)
        previous = link.operand
      }
      return left
    }
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
      "unknown name '\(name)'" + (guess.map { "; did you mean '\($0)'?" } ?? ""), at: span,
      hint: "define it first, for example \(name) = 5")
  }

  func call(
    _ name: String, nameSpan: SourceSpan, arguments: [Expr], span: SourceSpan, in env: Environment
  ) throws(Diagnostic) -> Value {
    guard let function = Builtins.function(named: name) else {
      // A variable or constant followed by "(": implicit multiplication, x(2) = x·2.
      if Environment.answerNames.contains(name) || env.variables[name] != nil || Builtins.constants[name] != nil {
        guard arguments.count == 1 else {
          throw Diagnostic("\(name) is not a function", at: nameSpan, hint: "write * to multiply")
        }
        return try multiply(lookUp(name, at: nameSpan, in: env), evaluate(arguments[0], in: env), at: nameSpan)
      }
      let guess = Suggestions.closest(to: name, in: Builtins.functionNames)
      throw Diagnostic(
        "unknown function '\(name)'" + (guess.map { "; did you mean '\($0)'?" } ?? ""), at: nameSpan,
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
    for argument in arguments { values.append(try evaluate(argument, in: env)) }
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
      guard !b.isZero else { throw Diagnostic("division by zero", at: span, hint: "x mod 0 is undefined") }
      if case .exact(let x) = a, case .exact(let y) = b {
        try checkBits(x.bitWidth + y.bitWidth, at: span)
        return .exact(Rational.floorMod(x, y))
      }
      let x = a.doubleValue
      let y = b.doubleValue
      return try approx(x - y * (x / y).rounded(.down), at: span)
    }
  }

  public func negate(_ v: Value) -> Value {
    switch v {
    case .exact(let r): .exact(-r)
    case .approx(let d): .approx(-d)
    }
  }

  public func add(_ a: Value, _ b: Value, at span: SourceSpan) throws(Diagnostic) -> Value {
    if case .exact(let x) = a, case .exact(let y) = b {
      try checkBits(Rational.sumBitWidthBound(x, y), at: span)
      return .exact(x + y)
    }
    return try approx(a.doubleValue + b.doubleValue, at: span)
  }

  public func multiply(_ a: Value, _ b: Value, at span: SourceSpan) throws(Diagnostic) -> Value {
    if a == .exact(.zero) || b == .exact(.zero) { return .exact(.zero) }  // 0·π is exactly 0
    if case .exact(let x) = a, case .exact(let y) = b {
      try checkBits(Rational.productBitWidthBound(x, y), at: span)
      return .exact(x * y)
    }
    let product = a.doubleValue * b.doubleValue
    if product == 0 && !a.isZero && !b.isZero { throw tooSmall(at: span) }
    return try approx(product, at: span)
  }

  public func divide(_ a: Value, _ b: Value, at span: SourceSpan) throws(Diagnostic) -> Value {
    guard !b.isZero else { throw Diagnostic("division by zero", at: span) }
    if a == .exact(.zero) { return .exact(.zero) }
    if case .exact(let x) = a, case .exact(let y) = b {
      try checkBits(Rational.quotientBitWidthBound(x, y), at: span)
      return .exact(x / y)
    }
    let quotient = a.doubleValue / b.doubleValue
    if quotient == 0 && !a.isZero { throw tooSmall(at: span) }
    return try approx(quotient, at: span)
  }

  func power(_ base: Value, _ exponent: Value, at span: SourceSpan) throws(Diagnostic) -> Value {
    if exponent == .exact(.zero) { return .exact(.one) }  // x^0 is 1 exactly, even for ≈ x
    if case .exact(let b) = base, case .exact(let e) = exponent {
      if e.isInteger { return .exact(try integerPower(b, e, at: span)) }
      // A fractional exponent p/q: exact when base is a perfect q-th power.
      if b.isZero {
        if e.isNegative { throw Diagnostic("division by zero: 0 to a negative power", at: span) }
        return .exact(.zero)
      }
      // An even root of a negative number is not real, however large the denominator.
      let evenRoot = !e.denominator.isOdd
      if b.isNegative && evenRoot {
        throw Diagnostic(
          "not a real number: an even root of a negative number", at: span,
          hint: "(-8)^(1/3) works; (-4)^(1/2) has no real value")
      }
      if let q = e.denominator.intValue, q < 1_000_000, let root = b.exactRoot(q) {
        return .exact(try integerPower(root, Rational(e.numerator), at: span))
      }
      // An odd root of a negative number is real; its sign is the numerator's parity.
      let magnitude = Glibc.pow(b.magnitude.doubleValue, e.doubleValue)
      let odd = e.numerator.isOdd
      return try approx(b.isNegative && odd ? -magnitude : magnitude, at: span)
    }
    let x = base.doubleValue
    let y = exponent.doubleValue
    if x == 0 && y < 0 { throw Diagnostic("division by zero: 0 to a negative power", at: span) }
    if x < 0 && y != y.rounded() {
      throw Diagnostic("not a real number: a negative number to a fractional power", at: span)
    }
    let result = Glibc.pow(x, y)
    if result == 0 && x != 0 { throw tooSmall(at: span) }
    return try approx(result, at: span)
  }

  /// `b^e` for an integer `e`, refusing results over the size limit before computing them.
  func integerPower(_ b: Rational, _ e: Rational, at span: SourceSpan) throws(Diagnostic) -> Rational {
    if b.isZero {
      if e.isNegative { throw Diagnostic("division by zero: 0 to a negative power", at: span) }
      return e.isZero ? .one : .zero
    }
    if b == .one { return .one }
    if b == -1 { return e.numerator.isOdd ? -1 : .one }
    // (The magnitude, not abs: abs(Int.min) traps, and 2^-2^63 asks for it.)
    guard let n = e.intValue, n.magnitude <= UInt(maxBits) else {
      throw tooLarge(at: span)
    }
    // |b| ≥ 2^(bitWidth−1) (or its reciprocal), so this is a lower bound on the result's size.
    if (b.bitWidth - 1) * abs(n) > maxBits { throw tooLarge(at: span) }
    // A closer estimate, so that 10^1000000 is refused before it is computed: the result's
    // bit width is above n·log2 of the larger of numerator and denominator. (The margin is
    // for rounding; only an exact power of two could sit on the limit, and it is refused too.)
    let log2Base: Double =
      switch b.storage {
      case .small(let bn, let bd): Glibc.log2(Double(Swift.max(bn.magnitude, bd.magnitude)))
      case .big: Swift.max(Evaluator.log2(b.numerator), Evaluator.log2(b.denominator))
      }
    if Double(abs(n)) * log2Base > Double(maxBits) + 1e-6 {
      throw tooLarge(at: span)
    }
    let result = b.power(n)
    try checkSize(result, at: span)
    return result
  }

  func factorial(_ v: Value, at span: SourceSpan) throws(Diagnostic) -> Value {
    var value = v
    if case .approx(let d) = v, d.isFinite, d == d.rounded(), let r = Rational(exactly: d) { value = .exact(r) }
    guard case .exact(let r) = value, r.isInteger, !r.isNegative else {
      throw Diagnostic("factorial needs a whole number ≥ 0", at: span, hint: "n! is 1·2·…·n")
    }
    guard let n = r.intValue, n <= 1_000_000, Glibc.lgamma(Double(n) + 1) / M_LN10 < Double(digitLimit)
    else {
      throw tooLarge(at: span)
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

  func approx(_ d: Double, at span: SourceSpan) throws(Diagnostic) -> Value {
    if d.isNaN { throw Diagnostic("not a real number", at: span) }
    if d.isInfinite {
      throw Diagnostic(
        "the result is too large to approximate (beyond about 1.8e308)", at: span,
        hint: "approximations are double-precision numbers; exact results may have \(digitLimit.grouped) digits")
    }
    return .approx(d)
  }

  /// Refuses an operation whose operands together are over the limit, before doing it.
  func checkBits(_ bits: Int, at span: SourceSpan) throws(Diagnostic) {
    if bits > maxBits + 64 {
      throw Diagnostic(
        "this calculation would need more than \(digitLimit.grouped) digits", at: span,
        hint: "Reckon keeps every digit exact, up to \(digitLimit.grouped) digits")
    }
  }

  func tooSmall(at span: SourceSpan) -> Diagnostic {
    Diagnostic(
      "the result is too small to approximate (below about 1e-308)", at: span,
      hint: "approximations are double-precision numbers")
  }

  func checkSize(_ r: Rational, at span: SourceSpan) throws(Diagnostic) {
    if r.bitWidth > maxBits { throw tooLarge(at: span) }
  }

  func tooLarge(at span: SourceSpan) -> Diagnostic {
    Diagnostic(
      "the result would have more than \(digitLimit.grouped) digits", at: span,
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
