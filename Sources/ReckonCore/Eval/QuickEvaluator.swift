/// Plain arithmetic in one pass over a line's bytes, without tokens or a tree: numbers
/// (`12`, `3.25`, `.5`), `+ - * / ^`, parentheses and unary minus. That is most of what a
/// piped batch holds, and the lexer, parser and evaluator together cost several times more
/// per line than this does.
///
/// It answers only when it is sure to agree with the full path (`Parser.parseLine` then
/// `Evaluator.evaluate`): the grammar's precedence is the same (`^` binds tighter than unary
/// minus and is right-associative; `*` and `/` tighter than `+` and `-`, all left-associative),
/// numbers are read as the lexer reads them, and the arithmetic is exact: in machine words
/// (`MachineLane`: fractions in lowest terms, the one form `Rational` keeps, refusing on any
/// overflow) or else with the evaluator's own operations and size checks (`ExactLane`). Anything
/// else, from a name, `%`, `!`, an exponent in a number, a digit separator or implicit
/// multiplication to a long line or any error at all, gives `nil`, and the caller takes the
/// full path, which also writes the error message with its place.
///
/// It never does much work: the whole line's syntax is checked before any arithmetic (so a
/// line with a mistake at its end costs nothing before the full path reports it), and it
/// gives up before any operation on numbers of over `maxOperandBits`, before a power whose
/// result would be larger, and before a fractional power. Big calculations are the full
/// path's, which stops between steps for Ctrl-C and says where it stopped.
public struct QuickEvaluator {
  /// Longer lines take the full path.
  public static let maxLineBytes = 256
  /// Lines with more parentheses, unary minuses and powers than this take the full path (so
  /// the recursion here stays shallow; the full path has its own limit and message).
  static let maxNesting = 64
  /// Operands (and results of powers) larger than this take the full path: about 300 digits.
  static let maxOperandBits = 1024

  let bytes: UnsafeBufferPointer<UInt8>
  var position = 0
  var depth = 0

  /// A failure: not plain arithmetic, or an error the full path should report.
  struct NotHandled: Error {}

  /// The value of `line` when it is plain arithmetic that evaluates without error; else `nil`.
  public static func value(of line: String, evaluator: Evaluator) -> Value? {
    var line = line
    guard line.utf8.count <= maxLineBytes else { return nil }
    return line.withUTF8 { bytes in
      let quick = QuickEvaluator(bytes: bytes)
      // The first byte decides: a digit, "." or "(" (a line starting with an operator
      // continues from ans; one starting with a letter may be a command or a name).
      var start = quick
      start.skipSpace()
      guard let first = start.peek(),
        QuickEvaluator.isDigit(first) || first == UInt8(ascii: ".") || first == UInt8(ascii: "("),
        quick.isPlainArithmetic()
      else { return nil }
      // Machine words first (most lines), then the evaluator's own numbers and operations.
      if let small = quick.evaluate(in: MachineLane()) { return .rational(small.rational) }
      // (An approximation of which no digit is known is the full path's error to give.)
      guard let number = quick.evaluate(in: ExactLane(evaluator: evaluator)),
        (try? evaluator.knowable(.number(number), at: SourceSpan(0, 0))) != nil
      else { return nil }
      return .number(number)
    }
  }

  /// The line's value computed in `lane`, or nil if the lane cannot compute it.
  func evaluate<Lane: QuickLane>(in lane: Lane) -> Lane.Number? {
    var quick = self
    do throws(NotHandled) {
      let value = try quick.sum(lane)
      quick.skipSpace()
      return quick.position == bytes.count ? value : nil
    } catch {
      return nil
    }
  }

  /// Whether the line is plain arithmetic, checked without computing anything: operands (a
  /// number or a parenthesised group, each after any unary minuses) alternate with binary
  /// operators, the parentheses balance, and there are at most `maxNesting` parentheses,
  /// unary minuses and powers in all. Exactly the lines the grammar below accepts.
  func isPlainArithmetic() -> Bool {
    var scan = self
    var open = 0
    var nesting = 0
    var expectOperand = true
    while true {
      scan.skipSpace()
      guard let c = scan.peek() else { return !expectOperand && open == 0 }
      if expectOperand {
        if c == UInt8(ascii: "-") || c == UInt8(ascii: "(") {
          open += c == UInt8(ascii: "(") ? 1 : 0
          nesting += 1
          scan.position += 1
        } else {
          guard (try? scan.numberDigits()) != nil else { return false }
          expectOperand = false
        }
      } else if c == UInt8(ascii: ")") {
        guard open > 0 else { return false }
        open -= 1
        scan.position += 1
      } else if QuickEvaluator.isBinaryOperator(c) {
        nesting += c == UInt8(ascii: "^") ? 1 : 0
        expectOperand = true
        scan.position += 1
      } else {
        return false
      }
      if nesting > QuickEvaluator.maxNesting { return false }
    }
  }

  // MARK: Grammar, loosest first (grammar/reckon.ebnf: additive … primary)

  /// `product { ("+" | "-") product }`
  mutating func sum<Lane: QuickLane>(_ lane: Lane) throws(NotHandled) -> Lane.Number {
    var left = try product(lane)
    while true {
      skipSpace()
      guard let c = peek(), c == UInt8(ascii: "+") || c == UInt8(ascii: "-") else { return left }
      position += 1
      let right = try product(lane)
      left = c == UInt8(ascii: "+") ? try lane.add(left, right) : try lane.subtract(left, right)
    }
  }

  /// `unary { ("*" | "/") unary }`
  mutating func product<Lane: QuickLane>(_ lane: Lane) throws(NotHandled) -> Lane.Number {
    var left = try unary(lane)
    while true {
      skipSpace()
      guard let c = peek(), c == UInt8(ascii: "*") || c == UInt8(ascii: "/") else { return left }
      position += 1
      let right = try unary(lane)
      left = c == UInt8(ascii: "*") ? try lane.multiply(left, right) : try lane.divide(left, right)
    }
  }

  /// `"-" unary | power`
  mutating func unary<Lane: QuickLane>(_ lane: Lane) throws(NotHandled) -> Lane.Number {
    skipSpace()
    if peek() == UInt8(ascii: "-") {
      position += 1
      return try lane.negate(try nested { (q: inout QuickEvaluator) throws(NotHandled) in try q.unary(lane) })
    }
    return try power(lane)
  }

  /// `primary [ "^" unary ]`
  mutating func power<Lane: QuickLane>(_ lane: Lane) throws(NotHandled) -> Lane.Number {
    let base = try primary(lane)
    skipSpace()
    guard peek() == UInt8(ascii: "^") else { return base }
    position += 1
    let exponent = try nested { (q: inout QuickEvaluator) throws(NotHandled) in try q.unary(lane) }
    return try lane.power(base, exponent)
  }

  /// `number | "(" sum ")"`, and nothing may follow directly that would make it more
  /// (a name or "(" multiplies implicitly; "!" and "%" are postfix operators).
  mutating func primary<Lane: QuickLane>(_ lane: Lane) throws(NotHandled) -> Lane.Number {
    skipSpace()
    guard let c = peek() else { throw NotHandled() }
    let value: Lane.Number
    if c == UInt8(ascii: "(") {
      position += 1
      value = try nested { (q: inout QuickEvaluator) throws(NotHandled) in try q.sum(lane) }
      skipSpace()
      guard peek() == UInt8(ascii: ")") else { throw NotHandled() }
      position += 1
    } else {
      let (digits, fractionDigits) = try numberDigits()
      value = try lane.literal(digits, fractionDigits: fractionDigits)
    }
    skipSpace()
    if let next = peek(), !QuickEvaluator.mayFollowOperand(next) { throw NotHandled() }
    return value
  }

  /// `digits [ "." digits ] | "." digits`, at most 18 digits, as the lexer reads it: the
  /// digits as one integer, and how many of them follow the point.
  mutating func numberDigits() throws(NotHandled) -> (Int64, Int) {
    var value: Int64 = 0
    var digits = 0
    var fractionDigits = 0
    var seenPoint = false
    while let c = peek() {
      if QuickEvaluator.isDigit(c) {
        digits += 1
        if digits <= 18 { value = value * 10 + Int64(c - UInt8(ascii: "0")) }
        if seenPoint { fractionDigits += 1 }
      } else if c == UInt8(ascii: ".") && !seenPoint {
        seenPoint = true
      } else {
        break
      }
      position += 1
    }
    // "1." and "." alone, long numbers, "1e3" and "1_000" are the lexer's to read.
    guard digits > 0 && digits <= 18 && (!seenPoint || fractionDigits > 0) else { throw NotHandled() }
    if let c = peek(), c == UInt8(ascii: "e") || c == UInt8(ascii: "E") || c == UInt8(ascii: "_") {
      throw NotHandled()
    }
    return (value, fractionDigits)
  }

  // MARK: Helpers

  /// Runs `body` one level deeper (`isPlainArithmetic` has bounded the depth already).
  mutating func nested<Number>(_ body: (inout QuickEvaluator) throws(NotHandled) -> Number) throws(NotHandled)
    -> Number
  {
    guard depth < QuickEvaluator.maxNesting else { throw NotHandled() }
    depth += 1
    defer { depth -= 1 }
    return try body(&self)
  }

  @inline(__always) func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

  /// Spaces as the lexer counts them.
  @inline(__always) mutating func skipSpace() {
    while position < bytes.count && QuickEvaluator.isSpace(bytes[position]) { position += 1 }
  }

  /// A byte the lexer counts as space.
  @inline(__always) static func isSpace(_ c: UInt8) -> Bool {
    c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") || c == UInt8(ascii: "\r") || c == UInt8(ascii: "\n")
  }

  @inline(__always) static func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }

  @inline(__always) static func isBinaryOperator(_ c: UInt8) -> Bool {
    c == UInt8(ascii: "+") || c == UInt8(ascii: "-") || c == UInt8(ascii: "*") || c == UInt8(ascii: "/")
      || c == UInt8(ascii: "^")
  }

  /// What may come after a number or ")" in plain arithmetic: an operator or ")".
  @inline(__always) static func mayFollowOperand(_ c: UInt8) -> Bool { isBinaryOperator(c) || c == UInt8(ascii: ")") }
}
