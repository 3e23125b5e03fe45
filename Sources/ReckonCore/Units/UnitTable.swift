import ReckonData

/// Reckon's units, their prefixes, the named dimensions and the physical constants: data, in
/// `Sources/ReckonData/units.txt` and `constants.txt` (their format is UNITS-FORMAT.md
/// beside them), read the first time a line needs a unit, never at start-up.
///
/// A definition is a Reckon expression (`2.54 cm`, `kg*m^2/s^2`, `pi/180 rad`) over the
/// units above it, worked out exactly: a factor is a rational, or a rational times a power of
/// π (angles). Only constants the SI does not fix are approximations, known to the digits
/// CODATA gives.
public final class UnitTable: Sendable {
  /// One unit.
  public struct Entry: Sendable {
    /// How Reckon writes it (`km` is its prefix and `m`).
    public let symbol: String
    /// Every name it answers to, the symbol first.
    public let names: [String]
    public let dimension: Dimension
    /// The dimensionless kind it belongs to (`angle`, `ratio`), or nil.
    public let kind: String?
    /// One of this unit in the base units (for a temperature scale, the size of its degree).
    public let factor: Number
    /// A temperature scale's zero: x of it is (x + offset)·factor.
    public let offset: Rational?
    /// A currency's decimals (ISO 4217's minor unit); nil for other units. A currency has no
    /// factor: rates come from the user.
    public let currencyDigits: Int?
    /// The units its definition is written in (`Wh = W*h`: W·h; `V = W/A`: W·A⁻¹), none for a
    /// base unit: where a quotient's units find one to be shown in (kWh / W is in h).
    public let parts: Unit
    /// The prefixes it takes, by index into `prefixes` (bit i).
    let prefixMask: UInt64
    public let source: String
    /// Where it is defined (1-based line of units.txt).
    public let line: Int

    public var isAffine: Bool { offset != nil }
    public var isCurrency: Bool { currencyDigits != nil }
  }

  /// A prefix (`k`, `Mi`).
  public struct Prefix: Sendable {
    public let symbol: String
    public let names: [String]
    public let factor: Rational
    public let isBinary: Bool
    public let source: String
  }

  /// A physical constant: its value with its unit.
  public struct Constant: Sendable {
    public let symbol: String
    public let names: [String]
    public let value: Quantity
    /// Whether the SI fixes it (else it is CODATA's measured value, known to its digits).
    public let isExact: Bool
    public let summary: String
    public let source: String
  }

  /// A named dimension (`speed`), or a dimensionless kind (`angle`).
  public struct NamedDimension: Sendable {
    public let name: String
    public let dimension: Dimension
    public let isKind: Bool
  }

  public let units: [Entry]
  public let prefixes: [Prefix]
  public let constants: [Constant]
  public let dimensions: [NamedDimension]
  /// What could not be read: `line N: why`. Empty for the built-in table (a test checks).
  public let problems: [String]

  let unitByName: [String: Int]
  let prefixByName: [String: Int]
  /// The most scalars a prefix's name has (`da`, `Ki`: 2).
  let longestPrefix: Int
  /// Whether each unit (by index) is an angle's: asked for every conversion.
  let isAngle: [Bool]
  let constantByName: [String: Int]

  /// The built-in table, read on first use.
  public static let standard: UnitTable = {
    let units = reckon_data_units()
    let constants = reckon_data_constants()
    return UnitTable(
      units: Array(UnsafeBufferPointer(start: units.bytes, count: Int(units.size))),
      constants: Array(UnsafeBufferPointer(start: constants.bytes, count: Int(constants.size))))
  }()

  /// A table read from the two files' bytes.
  public init(units unitBytes: [UInt8], constants constantBytes: [UInt8] = []) {
    var reader = Reader()
    reader.read(unitBytes, file: "units.txt") { (line, number, reader) in reader.unitLine(line, number) }
    reader.read(constantBytes, file: "constants.txt") { (line, number, reader) in
      reader.constantLine(line, number)
    }
    units = reader.units
    prefixes = reader.prefixes
    constants = reader.constants
    dimensions = reader.dimensions
    problems = reader.problems
    unitByName = reader.unitByName
    prefixByName = reader.prefixByName
    longestPrefix = reader.longestPrefix
    isAngle = reader.units.map { $0.kind == "angle" }
    constantByName = reader.constantByName
  }

  // MARK: Looking up

  /// The unit a name means: a unit's own name (`min`, `Pa`, `ft`), else a prefix and the name
  /// of a unit that takes it (`km`, `MiB`, `µs`); nil when it is no unit.
  public func term(named name: String) -> Unit.Term? {
    UnitTable.term(
      named: name, units: units, unitByName: unitByName, prefixByName: prefixByName, longestPrefix: longestPrefix)
  }

  /// The rule for a unit's name, the table's and its definitions' alike: a unit's own name,
  /// else a prefix of one to `longestPrefix` scalars and a unit that takes it. Each split of
  /// the name's head is looked up (the longest that works wins: `dam` is decametres, not
  /// deci-am), not every prefix tried.
  static func term(
    named name: String, units: [Entry], unitByName: [String: Int], prefixByName: [String: Int], longestPrefix: Int
  ) -> Unit.Term? {
    if let index = unitByName[name] { return Unit.Term(unit: UInt16(index), prefix: 0, power: 1) }
    let scalars = name.unicodeScalars
    var best: Unit.Term?
    var cut = scalars.startIndex
    for _ in 0..<longestPrefix {
      guard cut != scalars.endIndex else { break }
      cut = scalars.index(after: cut)
      guard cut != scalars.endIndex, let p = prefixByName[String(scalars[..<cut])],
        let index = unitByName[String(scalars[cut...])], units[index].prefixMask & (1 << UInt64(p)) != 0
      else { continue }
      best = Unit.Term(unit: UInt16(index), prefix: UInt8(p + 1), power: 1)
    }
    return best
  }

  /// Two units run together (`kmh`, `kWh` is one already): the quotient they most likely
  /// mean, `km/h`, when the name splits into two unit names one way only.
  public func runTogether(_ name: String) -> String? {
    let scalars = Array(name.unicodeScalars)
    guard scalars.count >= 2, scalars.count <= 12 else { return nil }
    var found: [String] = []
    for cut in 1..<scalars.count {
      let left = String(String.UnicodeScalarView(scalars[..<cut]))
      let right = String(String.UnicodeScalarView(scalars[cut...]))
      if let a = term(named: left), let b = term(named: right),
        dimension(of: Unit(a)) != dimension(of: Unit(b)), !dimension(of: Unit(b)).isNone
      {
        found.append(left + "/" + right)
      }
    }
    return found.count == 1 ? found[0] : nil
  }

  /// The constant a name means.
  public func constant(named name: String) -> Constant? { constantByName[name].map { constants[$0] } }

  /// The name of a dimension, or of the dimensionless kind of a unit: `a length`, `a speed`.
  public func name(of dimension: Dimension, kind: String? = nil) -> String? {
    if let kind { return kind }
    return dimensions.first { !$0.isKind && $0.dimension == dimension }?.name
  }

  /// The units of a named dimension or kind, in the order of the table.
  public func units(of dimension: String) -> [Entry]? {
    guard let named = dimensions.first(where: { $0.name == dimension }) else { return nil }
    return units.filter { named.isKind ? $0.kind == named.name : $0.kind == nil && $0.dimension == named.dimension }
  }

  /// Every name of a unit, prefix-free, and of a constant: for "did you mean" and completion.
  public var allNames: [String] {
    units.flatMap(\.names) + constants.flatMap(\.names)
  }

  /// How a term is written: its prefix's symbol and its unit's.
  public func symbol(of term: Unit.Term) -> String {
    (term.prefix == 0 ? "" : prefixes[Int(term.prefix) - 1].symbol) + units[Int(term.unit)].symbol
  }

  /// A term's factor: its prefix's and its unit's (for a scale, the size of its degree).
  public func factor(of term: Unit.Term) -> Number {
    Reader.factor(of: term, units: units, prefixes: prefixes)
  }
}

// MARK: - Reading the files

extension UnitTable {
  /// Reads the table's lines in order; each line may use what the lines above it define.
  struct Reader {
    var units: [Entry] = []
    var prefixes: [Prefix] = []
    var constants: [Constant] = []
    var dimensions: [NamedDimension] = []
    var problems: [String] = []
    var unitByName: [String: Int] = [:]
    var prefixByName: [String: Int] = [:]
    /// The most scalars a prefix's name has so far.
    var longestPrefix = 0
    var constantByName: [String: Int] = [:]
    var file = ""
    /// The unit of the definition `evaluate` read last.
    var definitionUnit: Unit?

    /// Every line of `bytes` that is not blank or a comment, without its comment.
    mutating func read(_ bytes: [UInt8], file: String, _ body: (Substring, Int, inout Reader) -> Void) {
      self.file = file
      var number = 0
      var start = 0
      // On bytes: cutting the file into Strings first took most of the table's reading time.
      while start < bytes.count {
        var end = start
        while end < bytes.count && bytes[end] != 0x0A { end += 1 }
        number += 1
        var line = bytes[start..<end]
        start = end + 1
        if let hash = line.firstIndex(of: UInt8(ascii: "#")) { line = line[..<hash] }
        line = UnitTable.trimmed(line)
        if line.isEmpty { continue }
        body(Substring(String(decoding: line, as: UTF8.self)), number, &self)
      }
    }

    mutating func problem(_ number: Int, _ message: String) {
      problems.append("\(file) line \(number): \(message)")
    }

    /// Whether a unit's or constant's name is free (no unit or constant has it), or a
    /// prefix's (no prefix has it: `m` is both milli and the metre, told apart by place); says
    /// so when not.
    mutating func claim(_ name: String, _ number: Int, prefix: Bool = false) -> Bool {
      let taken = prefix ? prefixByName[name] != nil : unitByName[name] != nil || constantByName[name] != nil
      if taken { problem(number, "the name '\(name)' is taken already") }
      return !taken
    }

    // MARK: units.txt

    mutating func unitLine(_ line: Substring, _ number: Int) {
      if line.hasPrefix("dimension ") { return dimensionLine(line.dropFirst("dimension ".count), number) }
      if line.hasPrefix("prefix ") { return prefixLine(line.dropFirst("prefix ".count), number) }
      guard let (names, definition, fields) = split(line, number), fields.count == 2 else {
        return problem(number, "expected NAMES = DEFINITION ; PREFIXES ; SOURCE")
      }
      let prefixField = fields[0]
      let source = String(fields[1])
      var mask: UInt64 = 0
      for word in prefixField.split(separator: " ") {
        switch word {
        case "-": break
        case "si": for (i, p) in prefixes.enumerated() where !p.isBinary { mask |= 1 << UInt64(i) }
        case "binary": for (i, p) in prefixes.enumerated() where p.isBinary { mask |= 1 << UInt64(i) }
        default:
          guard let i = prefixByName[String(word)] else { return problem(number, "no prefix '\(word)'") }
          mask |= 1 << UInt64(i)
        }
      }
      let words = definition.split(separator: " ")
      var factor = Number.exact(.one)
      var dimension = Dimension.none
      var kind: String?
      var offset: Rational?
      var currencyDigits: Int?
      var parts = Unit.none
      if words.first == "base", words.count >= 2 {
        let name = words.dropFirst().joined(separator: " ")
        guard let named = dimensions.first(where: { $0.name == name }) else {
          return problem(number, "no dimension '\(name)'")
        }
        dimension = named.dimension
        kind = named.isKind ? named.name : nil
      } else if words.first == "currency", words.count == 2, let digits = Int(words[1]) {
        guard let money = Dimension.baseNames.firstIndex(of: "money") else { return }
        dimension = .base(money)
        currencyDigits = digits
      } else if words.first == "affine", let at = words.firstIndex(of: "offset"), at + 1 < words.count {
        guard let scale = evaluate(words[1..<at].joined(separator: " "), number),
          let zero = UnitTable.exactNumber(words[(at + 1)...].joined(separator: " "))
        else { return problem(number, "expected affine SCALE offset NUMBER") }
        (factor, dimension, kind) = scale
        offset = zero
      } else {
        guard let value = evaluate(String(definition), number) else { return }
        (factor, dimension, kind) = value
        parts = definitionUnit ?? .none
      }
      // A measured factor (the dalton, the Bohr radius) is known to the digits written.
      // (A byte search: String's own contains(String) would link the regex engine, 1.3 MB.)
      if UnitTable.find(Array("measured".utf8), in: Array(source.utf8)[...]) != nil, case .exact(let r) = factor {
        factor = .approx(UnitTable.measured(r, digits: UnitTable.significantDigits(of: definition)))
      }
      for name in names where !claim(name, number) { return }
      let index = units.count
      for name in names { unitByName[name] = index }
      units.append(
        Entry(
          symbol: names[0], names: names, dimension: dimension, kind: kind, factor: factor, offset: offset,
          currencyDigits: currencyDigits, parts: parts, prefixMask: mask, source: source, line: number))
    }

    mutating func dimensionLine(_ line: Substring, _ number: Int) {
      let bytes = Array(line.utf8)
      guard let equals = UnitTable.find(Array(" = ".utf8), in: bytes[...]) else {
        return problem(number, "expected dimension NAME = …")
      }
      let name = String(decoding: UnitTable.trimmed(bytes[..<equals]), as: UTF8.self)
      let definition = String(decoding: UnitTable.trimmed(bytes[(equals + 3)...]), as: UTF8.self)
      let dimension: Dimension
      var isKind = false
      if definition == "base" {
        guard let index = Dimension.baseNames.firstIndex(of: name) else {
          return problem(number, "'\(name)' is none of Reckon's base dimensions")
        }
        dimension = .base(index)
      } else if definition == "none" {
        dimension = .none
        isKind = true
      } else {
        guard let found = dimensionExpression(definition, number) else { return }
        dimension = found
      }
      if dimensions.contains(where: { $0.name == name }) { return problem(number, "dimension '\(name)' again") }
      if !isKind, let other = dimensions.first(where: { !$0.isKind && $0.dimension == dimension }) {
        return problem(number, "'\(name)' is the same dimension as '\(other.name)'")
      }
      dimensions.append(NamedDimension(name: name, dimension: dimension, isKind: isKind))
    }

    /// A product of named dimensions: `length^2`, `mass*length^2/time^2`.
    mutating func dimensionExpression(_ text: String, _ number: Int) -> Dimension? {
      guard let expr = try? Parser.parseExpression(text) else {
        problem(number, "cannot read the dimension '\(text)'")
        return nil
      }
      func walk(_ expr: Expr) -> Dimension? {
        switch expr {
        case .name(let name, _):
          return dimensions.first { $0.name == name && !$0.isKind }?.dimension
        case .power(let base, .number(let n, _), _):
          guard let d = walk(base), let k = n.intValue else { return nil }
          return d.power(k)
        case .power(let base, .negate(.number(let n, _), _), _):
          guard let d = walk(base), let k = n.intValue else { return nil }
          return d.power(-k)
        case .chain(let first, let links):
          guard var d = walk(first) else { return nil }
          for link in links {
            guard let other = walk(link.operand) else { return nil }
            switch link.op {
            case .multiply, .implicitMultiply: guard let p = d.times(other) else { return nil }; d = p
            case .divide: guard let q = d.times(other.power(-1)!) else { return nil }; d = q
            default: return nil
            }
          }
          return d
        default: return nil
        }
      }
      guard let found = walk(expr) else {
        problem(number, "the dimension '\(text)' names one not declared above")
        return nil
      }
      return found
    }

    mutating func prefixLine(_ line: Substring, _ number: Int) {
      guard let (names, definition, fields) = split(line, number), fields.count == 2 else {
        return problem(number, "expected prefix NAMES = FACTOR ; si|binary ; SOURCE")
      }
      guard let factor = UnitTable.exactNumber(String(definition)) else {
        return problem(number, "a prefix's factor must be an exact number, not '\(definition)'")
      }
      let kind = String(fields[0])
      guard kind == "si" || kind == "binary" else { return problem(number, "a prefix is si or binary") }
      guard prefixes.count < 64 else { return problem(number, "more than 64 prefixes") }
      for name in names where !claim(name, number, prefix: true) { return }
      for name in names {
        prefixByName[name] = prefixes.count
        longestPrefix = max(longestPrefix, name.unicodeScalars.count)
      }
      prefixes.append(
        Prefix(symbol: names[0], names: names, factor: factor, isBinary: kind == "binary", source: String(fields[1])))
    }

    // MARK: constants.txt

    mutating func constantLine(_ line: Substring, _ number: Int) {
      guard let (names, definition, fields) = split(line, number), fields.count == 3 else {
        return problem(number, "expected NAMES = VALUE UNIT ; exact|measured ; DESCRIPTION ; SOURCE")
      }
      let exactness = String(fields[0])
      guard exactness == "exact" || exactness == "measured" else {
        return problem(number, "a constant is exact or measured, not '\(exactness)'")
      }
      guard let value = quantity(String(definition), number) else { return }
      var quantity = value
      if exactness == "measured", case .exact(let r) = quantity.number {
        quantity.number = .approx(UnitTable.measured(r, digits: UnitTable.significantDigits(of: definition)))
      }
      for name in names where !claim(name, number) { return }
      for name in names { constantByName[name] = constants.count }
      constants.append(
        Constant(
          symbol: names[0], names: names, value: quantity, isExact: exactness == "exact",
          summary: String(fields[1]), source: String(fields[2])))
    }

    // MARK: Pieces

    /// `NAMES = DEFINITION ; FIELD ; FIELD…`: the names, the definition and the fields after it.
    func split(_ line: Substring, _ number: Int) -> ([String], Substring, [Substring])? {
      let bytes = Array(line.utf8)
      guard let equals = UnitTable.find(Array(" = ".utf8), in: bytes[...]) else { return nil }
      let names = bytes[..<equals].split(separator: 0x20).map { String(decoding: $0, as: UTF8.self) }
      guard !names.isEmpty else { return nil }
      var parts: [Substring] = []
      var rest = bytes[(equals + 3)...]
      let separator = Array(" ; ".utf8)
      while let at = UnitTable.find(separator, in: rest) {
        parts.append(Substring(String(decoding: UnitTable.trimmed(rest[..<at]), as: UTF8.self)))
        rest = rest[(at + 3)...]
      }
      parts.append(Substring(String(decoding: UnitTable.trimmed(rest), as: UTF8.self)))
      let definition = parts.removeFirst()
      return (names, definition, parts)
    }

    /// A definition's value: its factor in base units, its dimension, and its kind (when it is
    /// made of one dimensionless kind's units alone).
    mutating func evaluate(_ text: String, _ number: Int) -> (Number, Dimension, String?)? {
      guard let q = quantity(text, number) else { return nil }
      definitionUnit = q.unit
      var kind: String?
      var factor = q.number
      var dimension = Dimension.none
      let evaluator = Evaluator()
      for i in 0..<Int(q.unit.count) {
        let term = q.unit[i]
        let entry = units[Int(term.unit)]
        if entry.isAffine || entry.isCurrency {
          problem(number, "'\(entry.symbol)' cannot be part of another unit's definition")
          return nil
        }
        guard let d = entry.dimension.power(Int(term.power)).flatMap(dimension.times) else {
          problem(number, "the dimension's powers are too large")
          return nil
        }
        dimension = d
        if let k = entry.kind { kind = (kind == nil || kind == k) ? k : "" }
        let termFactor = Self.factor(of: term, units: units, prefixes: prefixes)
        guard let f = try? evaluator.power(termFactor, .exact(Rational(Int(term.power))), at: SourceSpan(0, 0)),
          let product = try? evaluator.multiply(factor, f, at: SourceSpan(0, 0))
        else {
          problem(number, "cannot work out the factor of '\(text)'")
          return nil
        }
        factor = product
      }
      // A kind only for what has no dimension (a lumen is cd·sr: a luminous flux, no angle).
      return (factor, dimension, kind == "" || !dimension.isNone ? nil : kind)
    }

    /// A definition as a quantity in the units above it.
    mutating func quantity(_ text: String, _ number: Int) -> Quantity? {
      do {
        let expr = try Parser.parseExpression(text)
        return try DefinitionEvaluator(reader: self).value(of: expr)
      } catch {
        problem(number, "cannot read '\(text)': \(error.message)")
        return nil
      }
    }

    static func factor(of term: Unit.Term, units: [Entry], prefixes: [Prefix]) -> Number {
      let unit = units[Int(term.unit)].factor
      guard term.prefix != 0 else { return unit }
      let prefix = prefixes[Int(term.prefix) - 1].factor
      switch unit {
      case .exact(let r): return .exact(r * prefix)
      case .multiple(let r, let c): return .product(r * prefix, c)
      case .approx(let x): return .approx(x * Real.rational(prefix))
      }
    }
  }

  /// Bytes without spaces, tabs and carriage returns at either end.
  static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0D }
    guard let first = bytes.firstIndex(where: { !isSpace($0) }) else {
      return bytes[bytes.startIndex..<bytes.startIndex]
    }
    let last = bytes.lastIndex(where: { !isSpace($0) })!
    return bytes[first...last]
  }

  /// Where `needle` first occurs in `bytes` (an index of `bytes`), or nil.
  static func find(_ needle: [UInt8], in bytes: ArraySlice<UInt8>) -> Int? {
    guard bytes.count >= needle.count else { return nil }
    var i = bytes.startIndex
    while i + needle.count <= bytes.endIndex {
      if bytes[i] == needle[0] && bytes[i..<(i + needle.count)].elementsEqual(needle) { return i }
      i += 1
    }
    return nil
  }

  /// A measured value known to `digits` significant digits: an enclosure of half a unit in
  /// the last of them either side, so that no digit past them is ever shown as known.
  static func measured(_ value: Rational, digits: Int) -> Real {
    let magnitude = value.magnitude
    guard !magnitude.isZero, digits > 0 else { return Real.rational(value) }
    // 10^e ≤ |value| < 10^(e+1); the last digit given is 10^(e − digits + 1). The digits of
    // numerator and denominator put e within one of its value (a loop of tenfold steps from 1
    // took 30 divisions for the electron's mass), and the two loops below settle it.
    var e = magnitude.numerator.string().utf8.count - magnitude.denominator.string().utf8.count
    func power(_ n: Int) -> Rational {
      n >= 0 ? Rational(BigInteger.power(10, n)) : Rational(1, 1) / Rational(BigInteger.power(10, -n))
    }
    var scale = power(e)
    while scale * 10 <= magnitude {
      scale = scale * 10
      e += 1
    }
    while scale > magnitude {
      scale = scale / 10
      e -= 1
    }
    var half = Rational(1, 2)
    let places = e - digits + 1
    half = places >= 0 ? half * Rational(BigInteger.power(10, places)) : half / Rational(BigInteger.power(10, -places))
    return Real.between(value - half, value + half)
  }

  /// An exact number written in the table (`1e3`, `1/1000`, `2^10`, `273.15`).
  static func exactNumber(_ text: String) -> Rational? {
    guard let expr = try? Parser.parseExpression(text),
      let value = try? Evaluator().evaluate(expr, in: Environment())
    else { return nil }
    return value.exact
  }

  /// How many significant digits a written number has (`6.67430e-11`: 6).
  static func significantDigits(of text: Substring) -> Int {
    let mantissa = text.prefix { !$0.isWhitespace && $0 != "e" && $0 != "E" }
    let digits = mantissa.filter(\.isNumber).drop { $0 == "0" }
    return max(1, digits.count)
  }
}

/// Works out a definition: numbers, `pi`, units above it (with prefixes), `*` `/` `^` and
/// juxtaposition, to a quantity in those units.
struct DefinitionEvaluator {
  let reader: UnitTable.Reader
  let evaluator = Evaluator()

  func value(of expr: Expr) throws(Diagnostic) -> Quantity {
    switch expr {
    case .number(let r, _):
      return Quantity(.exact(r))
    case .name(let name, let span):
      if name == "pi" || name == "π" { return Quantity(.pi) }
      guard let term = term(named: name) else { throw Diagnostic("no unit '\(name)' above this line", at: span) }
      return Quantity(.exact(.one), Unit(term))
    case .negate(let inner, let span):
      let q = try value(of: inner)
      _ = span
      return Quantity(evaluator.negate(q.number), q.unit)
    case .power(let base, let exponent, let span):
      let b = try value(of: base)
      guard case .exact(let n) = try value(of: exponent).number, n.isInteger, let k = n.intValue else {
        throw Diagnostic("a power in a definition must be a whole number", at: span)
      }
      guard let unit = b.unit.power(k) else { throw Diagnostic("too many units in one definition", at: span) }
      return Quantity(try evaluator.power(b.number, .exact(Rational(k)), at: span), unit)
    case .chain(let first, let links):
      var q = try value(of: first)
      for link in links {
        let other = try value(of: link.operand)
        switch link.op {
        case .multiply, .implicitMultiply:
          guard let unit = q.unit.multiplied(by: other.unit) else {
            throw Diagnostic("too many units in one definition", at: link.operatorSpan)
          }
          q = Quantity(try evaluator.multiply(q.number, other.number, at: link.operatorSpan), unit)
        case .divide:
          guard let unit = q.unit.divided(by: other.unit) else {
            throw Diagnostic("too many units in one definition", at: link.operatorSpan)
          }
          q = Quantity(try evaluator.divide(q.number, other.number, at: link.operatorSpan), unit)
        default:
          throw Diagnostic("a definition multiplies and divides only", at: link.operatorSpan)
        }
      }
      return q
    default:
      throw Diagnostic("a definition multiplies and divides numbers and units only", at: expr.span)
    }
  }

  func term(named name: String) -> Unit.Term? {
    UnitTable.term(
      named: name, units: reader.units, unitByName: reader.unitByName, prefixByName: reader.prefixByName,
      longestPrefix: reader.longestPrefix)
  }
}
