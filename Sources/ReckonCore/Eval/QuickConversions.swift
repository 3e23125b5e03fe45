/// Unit conversions of the commonest shape in one pass over a line's bytes, as
/// `QuickEvaluator` does plain arithmetic: numbers each followed by one unit's name, then `to`
/// or `->` and a target (`5 km to mi`, `3 ft 9 in to cm`, `98.6 °F to °C`, `30 mpg to
/// L/100km`). The full path (lexer, parser, evaluator, conversion) costs several times more
/// per line than plain arithmetic does; a batch of conversions repeats a few shapes.
///
/// What a shape computes is learnt from the full path, never written twice: after the full path
/// has answered a line of a new shape, `learn` asks the evaluator's own conversion what 0 and 1
/// of each unit become in the target (every conversion of one dimension is affine, `n × slope
/// + offset`; a reciprocal one, `slope / n`), and keeps the plan only when it reproduces the
/// value the full path gave for that line. Later lines of the shape are one multiplication
/// and one addition of exact fractions.
///
/// It answers only where the plan cannot differ from the full path: every number is plain
/// decimal digits (no sign: below absolute zero is the full path's error), every unit word
/// means that unit (a variable of the same name hides it, checked on every line), every
/// factor is exact, and no currency is involved (rates change with `set rate`). Anything else,
/// a mixed result (`to ft in`) and every error take the full path.
public struct QuickConversions: Sendable {
  /// What every line of one shape computes: the target's number from the line's numbers.
  struct Plan: Sendable {
    /// The unit words, in order: a variable of one of these names hides the unit.
    var words: [String]
    /// How many target units one of each source unit makes; for a reciprocal conversion,
    /// how many one divided by the source number makes.
    var slopes: [Rational]
    /// What 0 of the source unit is in the target (a temperature scale's zero; else 0).
    var offset: Rational
    var reciprocal: Bool
    /// The result's unit, and what follows the number for it as the full path writes it
    /// (`NumberFormatter.suffix(text:)`: ` mi`, ` L/100km`).
    var unit: Unit
    var suffix: String
    /// The shape's unit words and target, as `shape(of:)` gives them.
    var key: [UInt8] = []

    /// The result for the line's numbers; nil where the full path gives an error.
    func quantity(for numbers: [Rational]) -> Quantity? {
      guard numbers.count == slopes.count else { return nil }
      if reciprocal {
        guard !numbers[0].isZero else { return nil }
        return Quantity(.exact(slopes[0] / numbers[0]), unit)
      }
      var r = offset
      for (n, slope) in zip(numbers, slopes) { r = r + n * slope }
      return Quantity(.exact(r), unit)
    }
  }

  /// At most this many shapes are learnt a session (a batch repeats a few).
  static let maxPlans = 64
  /// At most this many number-and-unit parts (`1 h 20 min 5 s`).
  static let maxParts = 8
  /// Separates the unit words and the target in a shape's key (no word holds it).
  static let separator: UInt8 = 1

  /// The plans learnt, in the order they were. (A list: a batch repeats a few shapes, and
  /// comparing a few bytes with each costs less than hashing a key.)
  var plans: [Plan] = []
  /// The keys of shapes that cannot be learnt (a currency, an inexact factor, a mixed
  /// result…): not tried again on every line of them. At most `maxPlans`.
  var declined: [[UInt8]] = []

  public init() {}

  /// The value of `line` and what follows its number (`NumberFormatter.suffix(text:)`), when
  /// it is a conversion of a learnt shape; else nil.
  public func answer(_ line: String, in env: Environment) -> (Quantity, suffix: String)? {
    guard !plans.isEmpty, let (numbers, key) = QuickConversions.shape(of: line),
      let plan = plans.first(where: { $0.key == key })
    else { return nil }
    if !env.variables.isEmpty, plan.words.contains(where: { env.variables[$0] != nil }) { return nil }
    return plan.quantity(for: numbers).map { ($0, plan.suffix) }
  }

  /// Learns the shape of `line`, which the full path parsed as `statement` and answered
  /// with `answer`, when it is one this can answer and the plan agrees with that answer.
  public mutating func learn(
    _ line: String, statement: Statement, answer: Value?, evaluator: Evaluator, in env: Environment
  ) {
    guard plans.count < QuickConversions.maxPlans, let (numbers, key) = QuickConversions.shape(of: line),
      !plans.contains(where: { $0.key == key }), !declined.contains(key)
    else { return }
    let words = key.split(separator: QuickConversions.separator, omittingEmptySubsequences: false).dropLast().map {
      String(decoding: $0, as: UTF8.self)
    }
    guard case .converted(.expression(let expr, continuesAnswer: false), let conversion) = statement,
      case .unit(let target, let text) = conversion.target,
      QuickConversions.parts(of: expr) == words.indices.map({ Part(numbers[$0], words[$0]) }),
      var plan = QuickConversions.plan(words, target: target, text: text, evaluator: evaluator, in: env),
      let quantity = plan.quantity(for: numbers), answer == .quantity(quantity)
    else {
      // Whether a shape can be learnt depends on the unit table alone, unless a variable
      // hides one of its words: after `reset` it may be learnt.
      if declined.count < QuickConversions.maxPlans, !words.contains(where: { env.variables[$0] != nil }) {
        declined.append(key)
      }
      return
    }
    plan.key = key
    plans.append(plan)
  }

  // MARK: Shapes

  /// One number and its unit word, as the parser read them.
  struct Part: Equatable {
    var number: Rational
    var word: String
    init(_ number: Rational, _ word: String) {
      self.number = number
      self.word = word
    }
  }

  /// The parts of a parsed quantity `5 km` or `3 ft 9 in`; nil for any other expression.
  static func parts(of expr: Expr) -> [Part]? {
    var exprs = [expr]
    if case .chain(let first, let links) = expr, links.allSatisfy({ $0.op == .mixed }) {
      exprs = [first] + links.map(\.operand)
    }
    var parts: [Part] = []
    for e in exprs {
      guard case .chain(.number(let n, _), let links) = e, links.count == 1, links[0].op == .implicitMultiply,
        case .name(let word, _) = links[0].operand
      else { return nil }
      parts.append(Part(n, word))
    }
    return parts
  }

  /// A line's numbers, and its unit words and target as one key, when it has the shape
  /// `NUMBER WORD { NUMBER WORD } ("to" | "->") TARGET`: numbers of plain digits, each word
  /// one name (letters, digits after the first, `_`, and any non-ASCII: `°F`, `µs`). The
  /// parse of the first line of a shape checks that the parser reads it so.
  static func shape(of line: String) -> ([Rational], key: [UInt8])? {
    var line = line
    guard line.utf8.count <= QuickEvaluator.maxLineBytes else { return nil }
    return line.withUTF8 { bytes -> ([Rational], key: [UInt8])? in
      var cursor = QuickEvaluator(bytes: bytes)
      var numbers: [Rational] = []
      var key: [UInt8] = []
      key.reserveCapacity(bytes.count)
      cursor.skipSpace()
      while true {
        guard let c = cursor.peek(), QuickEvaluator.isDigit(c) || c == UInt8(ascii: "."),
          let (digits, fractionDigits) = try? cursor.numberDigits(),
          let number = try? MachineLane().literal(digits, fractionDigits: fractionDigits),
          numbers.count < maxParts
        else { return nil }
        numbers.append(number.rational)
        cursor.skipSpace()
        let start = cursor.position
        while let c = cursor.peek(), isWordByte(c, first: cursor.position == start) { cursor.position += 1 }
        let word = UnsafeBufferPointer(rebasing: bytes[start..<cursor.position])
        guard !word.isEmpty, cursor.position < bytes.count, QuickEvaluator.isSpace(bytes[cursor.position]),
          !word.elementsEqual("to".utf8)
        else { return nil }
        key += word
        key.append(separator)
        cursor.skipSpace()
        if cursor.startsKeyword(UInt8(ascii: "t"), UInt8(ascii: "o"))
          || cursor.startsKeyword(UInt8(ascii: "-"), UInt8(ascii: ">"))
        {
          cursor.position += 2
          cursor.skipSpace()
          var end = bytes.count
          while end > cursor.position, QuickEvaluator.isSpace(bytes[end - 1]) { end -= 1 }
          let target = UnsafeBufferPointer(rebasing: bytes[cursor.position..<end])
          // A comment is the full path's to drop.
          guard !target.isEmpty, !target.contains(UInt8(ascii: "#")), !target.contains(separator) else { return nil }
          key += target
          return (numbers, key)
        }
      }
    }
  }

  /// A byte of a unit's name.
  static func isWordByte(_ c: UInt8, first: Bool) -> Bool {
    (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z"))
      || c >= 0x80 || (!first && (QuickEvaluator.isDigit(c) || c == UInt8(ascii: "_")))
  }

  // MARK: Plans

  /// The plan for `words` converted to `target`, from the evaluator's own conversion of 0
  /// and 1 of each unit; nil when some word is not a unit here, or a conversion is inexact,
  /// involves a currency, or is not one this can repeat.
  static func plan(_ words: [String], target: Expr, text: String, evaluator: Evaluator, in env: Environment)
    -> Plan?
  {
    let units = evaluator.units
    var plan = Plan(words: words, slopes: [], offset: .zero, reciprocal: false, unit: .none, suffix: "")
    for (i, word) in words.enumerated() {
      guard case .unit(let term) = evaluator.names.meaning(of: word, in: env) else { return nil }
      let unit = Unit(term)
      func converted(_ n: Rational) -> (Rational, Unit, String)? {
        let value = Value.quantity(Quantity(.exact(n), unit))
        guard case .quantity(let q, let unitText)? = try? evaluator.converted(value, to: target, text: text),
          case .exact(let r) = q.number
        else { return nil }
        return (r, q.unit, unitText)
      }
      guard units.currencyTerm(of: unit) == nil, let (one, resultUnit, unitText) = converted(.one),
        units.currencyTerm(of: resultUnit) == nil,
        i == 0 || (resultUnit == plan.unit && NumberFormatter.suffix(text: unitText) == plan.suffix)
      else { return nil }
      (plan.unit, plan.suffix) = (resultUnit, NumberFormatter.suffix(text: unitText))
      if units.dimension(of: unit) == units.dimension(of: resultUnit) {
        // n × slope + offset, and 0 must convert (it is not below absolute zero).
        guard let (zero, _, _) = converted(.zero), words.count == 1 || zero.isZero else { return nil }
        let slope = one - zero
        // Every number of the shape is ≥ 0: with the slope positive, none is below the
        // zero just converted.
        guard Rational.zero < slope else { return nil }
        plan.slopes.append(slope)
        plan.offset = plan.offset + zero
      } else {
        guard words.count == 1, !one.isZero else { return nil }
        plan.slopes.append(one)
        plan.reciprocal = true
      }
    }
    return plan
  }
}

extension QuickEvaluator {
  /// Whether the bytes at the cursor are the two-letter word `a b` (`to`, `->`) and a space.
  func startsKeyword(_ a: UInt8, _ b: UInt8) -> Bool {
    position + 2 < bytes.count && bytes[position] == a && bytes[position + 1] == b
      && QuickEvaluator.isSpace(bytes[position + 2])
  }
}
