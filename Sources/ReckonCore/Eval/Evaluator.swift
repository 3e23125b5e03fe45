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

  /// Another unit table than the built-in one (tests); nil: the built-in one, read the first
  /// time a line needs a unit.
  public var unitTable: UnitTable?

  /// The exchange rates the user has given: the only way one currency becomes another.
  public var rates = ExchangeRates()

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
    guard case .approx(let x)? = value.quantity?.number, x.digits(3) == .unknown else { return }
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
      return .rational(r)
    case .name(let name, let span):
      return try lookUp(name, at: span, in: env)
    case .call(let name, let nameSpan, let arguments, let span):
      return try call(name, nameSpan: nameSpan, arguments: arguments, span: span, in: env)
    case .negate(let inner, let span):
      return try negate(value(of: inner, in: env), at: span)
    case .power(let base, let exponent, let span):
      return try power(
        number(value(of: base, in: env), at: span), number(value(of: exponent, in: env), at: span), at: span)
    case .factorial(let inner, let span):
      return try factorial(number(value(of: inner, in: env), at: span), at: span)
    case .percent(let inner, let span):
      // p% is p of the unit percent (15% + 5% is 20%; in a product it is its number, 0.15).
      let p = try value(of: inner, in: env)
      guard let number = p.plainNumber, let percent = units.term(named: "%") else {
        return try divide(p, .rational(100), at: span)
      }
      return .quantity(Quantity(number, Unit(percent)))
    case .chain(let first, let links):
      var left: Value
      var mean = false
      do {
        left = try value(of: first, in: env)
      } catch {
        // (15 °C + 25 °C)/2: the mean of temperatures, which their sum alone is not.
        guard !links.isEmpty, let value = try meanOfPoints(first, over: links[0], in: env) else { throw error }
        (left, mean) = (value, true)
      }
      var previous = mean ? links[0].operand : first
      for link in links.dropFirst(mean ? 1 : 0) {
        let right = try value(of: link.operand, in: env)
        left = try apply(
          link, number(left, at: link.operatorSpan), number(right, at: link.operatorSpan), leftExpr: previous,
          leftSpan: SourceSpan(first.span.start, previous.span.end))
        previous = link.operand
      }
      return left
    case .comparison(let a, let comparison, let b, let span):
      let (x, y) = (try number(value(of: a, in: env), at: span), try number(value(of: b, in: env), at: span))
      let equality = comparison == .equal || comparison == .notEqual
      do {
        return .truth(comparison.holds(try compare(x, y, at: span, equality: equality)))
      } catch var error {
        // 1 m < 2 s: a caret under each side.
        if error.span == span, let (p, q) = try? (quantity(x, at: span), quantity(y, at: span)),
          units.dimension(of: p.unit) != units.dimension(of: q.unit) || !sameKind(p.unit, q.unit)
        {
          error.span = a.span
          error.also = [b.span]
        }
        throw error
      }
    }
  }

  /// `v`, when it is a number; true and false are not.
  func number(_ v: Value, at span: SourceSpan) throws(Diagnostic) -> Value {
    _ = try quantity(v, at: span)
    return v
  }

  /// The quantity `v` is; true and false are not quantities.
  func quantity(_ v: Value, at span: SourceSpan) throws(Diagnostic) -> Quantity {
    switch v {
    case .quantity(let q): return q
    case .truth(let t):
      throw Diagnostic(
        "\(t ? "true" : "false") is not a number: it cannot be calculated with", at: span,
        hint: "a comparison (a < b) or a test (isprime) gives true or false")
    }
  }

  // MARK: Names

  /// The names a calculation reads, and the one rule for what each means (`Names`).
  public var names: Names { Names(units: units) }

  func lookUp(_ name: String, at span: SourceSpan, in env: Environment) throws(Diagnostic) -> Value {
    switch names.meaning(of: name, in: env) {
    case .answer:
      guard let answer = env.answer else {
        throw Diagnostic(
          span.start == span.end ? "there is no previous result to continue from" : "there is no previous result yet",
          at: span, hint: "ans is the last result; calculate something first")
      }
      return answer
    case .variable(let value), .constant(let value): return value
    case .unit(let term): return .quantity(Quantity(.exact(.one), Unit(term)))
    case .physicalConstant(let constant): return .quantity(constant.value)
    case .function(let f):
      throw Diagnostic("\(name) is a function", at: span, hint: "call it with parentheses: \(f.usage)")
    case nil: throw unknownName(name, at: span, in: env)
    }
  }

  /// The error for a name that means nothing: with the name it most likely is, and, for two
  /// units run together (`kmh`), the unit they make (`km/h`).
  func unknownName(_ name: String, at span: SourceSpan, in env: Environment) -> Diagnostic {
    let guess = names.closest(to: name, in: env)
    return Diagnostic(
      "unknown name \(Diagnostic.quoted(name))" + (guess.map { "; did you mean '\($0)'?" } ?? ""), at: span,
      hint: "define it first, for example \(Diagnostic.isLong(name) ? "x" : name) = 5")
  }

  func call(
    _ name: String, nameSpan: SourceSpan, arguments: [Expr], span: SourceSpan, in env: Environment
  ) throws(Diagnostic) -> Value {
    let meaning = names.callee(name, in: env)
    guard case .function(let function) = meaning else {
      // A variable, constant or unit followed by "(": implicit multiplication, x(2) = x·2.
      if meaning != nil {
        guard arguments.count == 1 else {
          throw Diagnostic("\(Diagnostic.quoted(name)) is not a function", at: nameSpan, hint: "write * to multiply")
        }
        return try multiply(lookUp(name, at: nameSpan, in: env), value(of: arguments[0], in: env), at: nameSpan)
      }
      let guess = names.closestFunction(to: name)
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
