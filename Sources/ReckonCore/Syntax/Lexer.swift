/// Splits one input line into tokens. Columns count Unicode scalars.
public struct Lexer {
  let scalars: [Unicode.Scalar]
  var position = 0
  var numbers: [Rational] = []
  /// Inside a superscript power (`m²`, `s⁻¹`): its caret has been given, its sign and digits
  /// come next.
  var inSuperscript = false

  /// The largest decimal exponent a literal may carry (`1e1000000`).
  public static let maxExponent = 1_000_000
  /// This lexer's limit (the fuzzer gives a smaller one, with a smaller digit limit).
  let maxExponent: Int

  public init(_ source: String, maxExponent: Int = Lexer.maxExponent) {
    scalars = Lexer.scalars(of: source)
    self.maxExponent = maxExponent
  }

  /// The line as scalars; ASCII (the usual case) is copied byte for byte, without decoding.
  static func scalars(of source: String) -> [Unicode.Scalar] {
    let ascii = source.utf8.withContiguousStorageIfAvailable { bytes -> [Unicode.Scalar]? in
      for byte in bytes where byte >= 0x80 { return nil }
      return bytes.map { Unicode.Scalar($0) }
    }
    return (ascii ?? nil) ?? Array(source.unicodeScalars)
  }

  /// All tokens of the line, ending with `.end`. A `#` starts a comment that runs to the end.
  public static func tokenize(_ source: String, maxExponent: Int = Lexer.maxExponent) throws(Diagnostic) -> TokenList {
    var lexer = Lexer(source, maxExponent: maxExponent)
    var tokens: [Token] = []
    tokens.reserveCapacity(min(lexer.scalars.count + 1, 64))
    lexer.numbers.reserveCapacity(min(lexer.scalars.count / 2 + 1, 16))  // one allocation, not 1, 2, 4…
    while true {
      let token = try lexer.next()
      tokens.append(token)
      if token.kind == .end { return TokenList(tokens: tokens, scalars: lexer.scalars, numbers: lexer.numbers) }
    }
  }

  mutating func next() throws(Diagnostic) -> Token {
    skipSpace()
    let start = position
    guard position < scalars.count, scalars[position] != "#" else {
      return Token(.end, SourceSpan(start, start))
    }
    let c = scalars[position]
    let kind: Token.Kind
    var index: Int32 = -1
    if Lexer.superscriptDigit(c) != nil || c == "\u{207B}" {
      // m² is m^2, s⁻¹ is s^-1: a caret (of no width), then the sign and the digits.
      if !inSuperscript {
        inSuperscript = true
        return Token(.caret, SourceSpan(start, start))
      }
      if c == "\u{207B}" {
        position += 1
        return Token(.minus, SourceSpan(start, position))
      }
      var value = 0
      while position < scalars.count, let digit = Lexer.superscriptDigit(scalars[position]), value < 100_000 {
        value = value * 10 + digit
        position += 1
      }
      inSuperscript = false
      index = Int32(numbers.count)
      numbers.append(Rational(value))
      let spaceAfter = position < scalars.count && Lexer.isSpace(scalars[position])
      return Token(.number, SourceSpan(start, position), spaceAfter: spaceAfter, index: index)
    }
    inSuperscript = false
    if Lexer.isDigit(c) || (c == "." && position + 1 < scalars.count && Lexer.isDigit(scalars[position + 1])) {
      index = Int32(numbers.count)
      numbers.append(try number())
      kind = .number
    } else if Lexer.isSymbolName(c) {
      // A unit written as one symbol: ' " ‰ $ € £ ¥ (30° 15' 10", 5 €, 3 ‰).
      position += 1
      kind = .name
    } else if Lexer.isNameStart(c) {
      while position < scalars.count && Lexer.isNameContinue(scalars[position]) { position += 1 }
      kind = Lexer.keyword(scalars[start..<position]) ?? .name
    } else {
      position += 1
      switch c {
      case "+": kind = .plus
      case "-", "\u{2212}":
        if c == "-" && position < scalars.count && scalars[position] == ">" {
          position += 1
          kind = .arrow
        } else {
          kind = .minus
        }
      case "*", "\u{00D7}", "\u{22C5}", "\u{00B7}":
        if c == "*" && position < scalars.count && scalars[position] == "*" {
          position += 1
          kind = .caret
        } else {
          kind = .star
        }
      case "/", "\u{00F7}": kind = .slash
      case "^": kind = .caret
      case "%": kind = .percent
      case "!":
        kind = followedByEquals() ? .notEqual : .bang
      case "(": kind = .leftParen
      case ")": kind = .rightParen
      case ",": kind = .comma
      case "=":
        kind = followedByEquals() ? .equalEqual : .equals
      case "<": kind = followedByEquals() ? .lessOrEqual : .less
      case ">": kind = followedByEquals() ? .greaterOrEqual : .greater
      case "\u{2264}": kind = .lessOrEqual
      case "\u{2265}": kind = .greaterOrEqual
      case "\u{2260}": kind = .notEqual
      case "\u{FFFD}":
        throw Diagnostic("invalid UTF-8 in the input", at: SourceSpan(start, position))
      default:
        throw Diagnostic(
          "unexpected character \(Lexer.describe(c))", at: SourceSpan(start, position),
          hint: "operators are + - * / ^ % ! and mod; comparisons < <= > >= == !=")
      }
    }
    let span = SourceSpan(start, position)
    let spaceAfter = position < scalars.count && Lexer.isSpace(scalars[position])
    return Token(kind, span, spaceAfter: spaceAfter, index: index)
  }

  /// Takes a "=" after the character just read (`<=`, `==`, `!=`), if there is one.
  mutating func followedByEquals() -> Bool {
    guard position < scalars.count && scalars[position] == "=" else { return false }
    position += 1
    return true
  }

  /// The operator words `mod` and `of`.
  static func keyword(_ word: ArraySlice<Unicode.Scalar>) -> Token.Kind? {
    if word.count == 3 && word.elementsEqual("mod".unicodeScalars) { return .mod }
    if word.count == 2 && word.elementsEqual("of".unicodeScalars) { return .of }
    return nil
  }

  mutating func skipSpace() {
    while position < scalars.count && Lexer.isSpace(scalars[position]) { position += 1 }
  }

  /// digits [ "." [digits] ] [exponent] | "." digits [exponent]; "_" may separate digits.
  /// `0x`, `0o` and `0b` start a number in base 16, 8 or 2 (`basedNumber`).
  mutating func number() throws(Diagnostic) -> Rational {
    let start = position
    if scalars[position] == "0", position + 1 < scalars.count, let base = Lexer.Base(prefix: scalars[position + 1]) {
      return try basedNumber(base)
    }
    var mantissa = ""  // only filled once the digits no longer fit in `small`
    var small: Int64 = 0
    var digitCount = 0
    var fractionDigits = 0
    var seenPoint = false
    while position < scalars.count {
      let c = scalars[position]
      if Lexer.isDigit(c) {
        digitCount += 1
        if digitCount <= 18 {
          small = small * 10 + Int64(c.value - 48)
        } else {
          if digitCount == 19 { mantissa = String(small) }  // leading zeros carry no value
          mantissa.unicodeScalars.append(c)
        }
        if seenPoint { fractionDigits += 1 }
      } else if c == "_" && position > start && Lexer.isDigit(scalars[position - 1])
        && position + 1 < scalars.count && Lexer.isDigit(scalars[position + 1])
      {
        // a digit separator
      } else if c == "." && !seenPoint {
        seenPoint = true
      } else {
        break
      }
      position += 1
    }
    // H:MM or H:MM:SS, a time (1:30 h is an hour and a half): the parts after the first are
    // sixtieths, then three-thousand-six-hundredths, of it.
    if !seenPoint, digitCount > 0, digitCount <= 18, let time = try clockTime(hours: small) { return time }
    var exponent = 0
    if position < scalars.count, scalars[position] == "e" || scalars[position] == "E" {
      var p = position + 1
      var negative = false
      if p < scalars.count, scalars[p] == "+" || scalars[p] == "-" {
        negative = scalars[p] == "-"
        p += 1
      }
      if p < scalars.count && Lexer.isDigit(scalars[p]) {
        let digitsStart = p
        var value = 0
        while p < scalars.count && Lexer.isDigit(scalars[p]) {
          if value <= maxExponent { value = value * 10 + Int(scalars[p].value - 48) }
          p += 1
        }
        if value > maxExponent {
          throw Diagnostic(
            "exponent too large: numbers may have at most \(maxExponent) digits",
            at: SourceSpan(digitsStart, p))
        }
        exponent = negative ? -value : value
        position = p
      }
    }
    if position < scalars.count && scalars[position] == "_" {
      throw Diagnostic(
        "a digit separator '_' must stand between two digits", at: SourceSpan(position, position + 1),
        hint: "write 1_000_000")
    }
    if digitCount <= 18 { return Lexer.literal(small, shift: exponent - fractionDigits) }
    return Lexer.literal(digits: mantissa, shift: exponent - fractionDigits)
  }

  /// The rest of a clock time after its first number (`:30`, `:30:15`), taken when two digits
  /// follow each colon; nil (nothing taken) when no colon and two digits follow.
  mutating func clockTime(hours: Int64) throws(Diagnostic) -> Rational? {
    func twoDigits(at i: Int) -> Int? {
      guard i + 1 < scalars.count, Lexer.isDigit(scalars[i]), Lexer.isDigit(scalars[i + 1]),
        i + 2 == scalars.count || !Lexer.isNameContinue(scalars[i + 2])
      else { return nil }
      return Int(scalars[i].value - 48) * 10 + Int(scalars[i + 1].value - 48)
    }
    guard position < scalars.count, scalars[position] == ":", twoDigits(at: position + 1) != nil else { return nil }
    var value = Rational(Int(hours))
    var divisor = 60
    while divisor <= 3600, position < scalars.count, scalars[position] == ":", let part = twoDigits(at: position + 1) {
      guard part < 60 else {
        throw Diagnostic(
          "minutes and seconds in a time go up to 59", at: SourceSpan(position + 1, position + 3),
          hint: "1:30 is an hour and a half (or a minute and a half: 1:30 min)")
      }
      value = value + Rational(Int64(part), Int64(divisor))
      divisor *= 60
      position += 3
    }
    return value
  }

  /// The bases a literal may be written in, by the letter after its `0`.
  struct Base {
    let radix: Int
    /// "hexadecimal", "octal", "binary".
    let name: String
    /// "a hexadecimal", "an octal", "a binary".
    var aName: String { (name.first == "o" ? "an " : "a ") + name }
    /// The digits, as an error's hint names them.
    let digits: String
    /// A number written in the base, for hints; and one with a digit separator.
    let example: String
    let separated: String

    init?(prefix: Unicode.Scalar) {
      switch prefix {
      case "x", "X":
        (radix, name, digits, example, separated) = (16, "hexadecimal", "0–9 and a–f", "0xff", "0xffff_ffff")
      case "o", "O": (radix, name, digits, example, separated) = (8, "octal", "0–7", "0o17", "0o777_777")
      case "b", "B": (radix, name, digits, example, separated) = (2, "binary", "0 and 1", "0b1010", "0b1010_1010")
      default: return nil
      }
    }

    /// The value of `c` as a digit of this base; nil for anything else.
    func value(_ c: Unicode.Scalar) -> Int? {
      guard c.isASCII, let d = BigInteger.digitValue(UInt8(c.value)), d < radix else { return nil }
      return d
    }
  }

  /// `0x`, `0o` or `0b` (either case), then digits of that base with "_" between two of them,
  /// and optionally a point and more digits (`0x1.8` is 1.5): the exact value. Anything that
  /// could continue a name right after it is a digit that does not belong (`0b102`, `0xfg`).
  mutating func basedNumber(_ base: Base) throws(Diagnostic) -> Rational {
    let start = position
    position += 2
    var digits = ""
    var fractionDigits = 0
    var seenPoint = false
    func isDigit(_ i: Int) -> Bool { i >= 0 && i < scalars.count && base.value(scalars[i]) != nil }
    while position < scalars.count {
      let c = scalars[position]
      if base.value(c) != nil {
        digits.unicodeScalars.append(c)
        if seenPoint { fractionDigits += 1 }
      } else if c == "_" {
        if isDigit(position - 1) && position + 1 < scalars.count && scalars[position + 1] != "_"
          && Lexer.isNameContinue(scalars[position + 1]) && !isDigit(position + 1)
        {
          // "0o17_9": the digit after the separator is the mistake.
          position += 1
          continue
        }
        guard isDigit(position - 1) && isDigit(position + 1) else {
          throw Diagnostic(
            "a digit separator '_' must stand between two digits", at: SourceSpan(position, position + 1),
            hint: "write \(base.separated)")
        }
      } else if c == "." && !seenPoint && !digits.isEmpty {
        seenPoint = true
        guard position + 1 < scalars.count, Lexer.isNameContinue(scalars[position + 1]) else {
          throw Diagnostic(
            "a point in \(base.aName) number must have digits after it", at: SourceSpan(position, position + 1),
            hint: "for example: \(base.example).1")
        }
      } else if Lexer.isNameContinue(c) {
        let multiply = !digits.isEmpty && !Lexer.isDigit(c) ? "; to multiply by a name, write * before it" : ""
        throw Diagnostic(
          "\(Lexer.describe(c)) is not \(base.aName) digit", at: SourceSpan(position, position + 1),
          hint: "\(base.name) digits are \(base.digits)\(multiply)")
      } else {
        break
      }
      position += 1
    }
    let prefix = String(String.UnicodeScalarView(scalars[start..<start + 2]))
    guard !digits.isEmpty else {
      throw Diagnostic(
        "\(prefix) starts \(base.aName) number, but no digits follow", at: SourceSpan(start, start + 2),
        hint: "\(base.name) digits are \(base.digits), for example \(base.example)")
    }
    let value = BigInteger(digits: digits, radix: base.radix)!  // only digits of the base
    if fractionDigits == 0 { return Rational(value) }
    return Rational(numerator: value, denominator: BigInteger.power(UInt64(base.radix), fractionDigits))
  }

  /// The exact value of `n` times 10^shift, in machine integers when it fits.
  static func literal(_ n: Int64, shift: Int) -> Rational {
    var n = n
    if shift >= 0 && shift <= 18 {
      let (scaled, overflow) = n.multipliedReportingOverflow(by: powersOfTen[shift])
      if !overflow { return Rational(scaled, 1) }
    } else if shift < 0 && shift >= -18 {
      // Strip trailing zeros that the denominator would cancel anyway.
      var places = -shift
      while places > 0 && n % 10 == 0 {
        n /= 10
        places -= 1
      }
      return Rational(n, powersOfTen[places])
    }
    return literal(digits: String(n), shift: shift)
  }

  /// The exact value of a digit string times 10^shift.
  static func literal(digits: String, shift: Int) -> Rational {
    let value = BigInteger(decimal: digits)!  // the lexer's digits: ASCII 0–9
    if shift >= 0 { return Rational(value * BigInteger.power(10, shift)) }
    return Rational(numerator: value, denominator: BigInteger.power(10, -shift))
  }

  /// 10^0 … 10^18, written out (computing them pulled generic code into every start-up).
  static let powersOfTen: [Int64] = [
    1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000, 10_000_000_000,
    100_000_000_000, 1_000_000_000_000, 10_000_000_000_000, 100_000_000_000_000, 1_000_000_000_000_000,
    10_000_000_000_000_000, 100_000_000_000_000_000, 1_000_000_000_000_000_000,
  ]

  @inline(__always) static func isDigit(_ c: Unicode.Scalar) -> Bool { c >= "0" && c <= "9" }

  @inline(__always) static func isSpace(_ c: Unicode.Scalar) -> Bool {
    c == " " || c == "\t" || c == "\r" || c == "\n"
      || (c.value > 127 && (c.properties.isWhitespace || c == "\u{FEFF}"))  // a byte-order mark counts as space
  }

  /// Letters (of any script) and `_` start a name, and so does `°` (`°C`, and `°` alone).
  @inline(__always) static func isNameStart(_ c: Unicode.Scalar) -> Bool {
    c == "_"
      || (c.value < 128 ? (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") : c == "°" || c.properties.isAlphabetic)
  }

  @inline(__always) static func isNameContinue(_ c: Unicode.Scalar) -> Bool { isNameStart(c) || isDigit(c) }

  /// The digit a superscript digit is (`²` is 2), nil for other characters.
  static func superscriptDigit(_ c: Unicode.Scalar) -> Int? {
    switch c.value {
    case 0x2070: 0
    case 0xB9: 1
    case 0xB2: 2
    case 0xB3: 3
    case 0x2074...0x2079: Int(c.value - 0x2070)
    default: nil
    }
  }

  /// Characters that are a name on their own, never part of a longer one: the arcminute and
  /// arcsecond (`'` `"`, and the primes `′` `″`), per mille `‰`, and currency symbols.
  static func isSymbolName(_ c: Unicode.Scalar) -> Bool {
    switch c {
    case "'", "\"", "\u{2032}", "\u{2033}", "\u{2030}", "$", "\u{2103}", "\u{2109}": return true
    default: return c.value > 127 && c.properties.generalCategory == .currencySymbol
    }
  }

  /// A character as an error message shows it: printable ones quoted, others by code point.
  static func describe(_ c: Unicode.Scalar) -> String {
    if c.value < 32 || c.value == 127 || c.properties.generalCategory == .control
      || c.properties.generalCategory == .format
    {
      return "U+" + String(String(c.value, radix: 16, uppercase: true).leftPadded(to: 4))
    }
    return "'\(c)'"
  }
}

extension String {
  func leftPadded(to width: Int, with pad: Character = "0") -> String {
    count >= width ? self : String(repeating: pad, count: width - count) + self
  }
}
