import Testing

@testable import ReckonCore

/// The formats of `set format`, thousands separators, and the conversions of `to` and `full`.
/// Expected values were worked out with Python (fractions, decimal, int(…, base)) and mpmath.
@Suite struct FormatTests {
  /// The plain number `input` evaluates to.
  static func value(_ input: String) throws -> Number {
    try Evaluator().plain(Evaluator().evaluate(Parser.parseExpression(input), in: Environment()), at: SourceSpan(0, 0))
  }

  static func formatter(
    _ style: ReckonCore.NumberFormatter.Style = .automatic, digits: Int = 10, separators: Bool = false
  ) -> ReckonCore.NumberFormatter {
    var formatter = ReckonCore.NumberFormatter(digits: digits)
    formatter.style = style
    formatter.separators = separators
    return formatter
  }

  static func text(_ converted: Converted) -> String {
    switch converted {
    case .text(let text): text
    case .refused(let why, _): "refused: \(why)"
    }
  }

  @Test(arguments: [
    // fixed: N decimals, half away from zero, ≈ when rounding changed the value.
    ("1896.2", 2, "1896.20"), ("2/3", 2, "≈ 0.67"), ("1896", 2, "1896"), ("-0.001", 2, "≈ -0.00"),
    ("0.005", 2, "≈ 0.01"), ("2.675", 2, "≈ 2.68"), ("-2.675", 2, "≈ -2.68"), ("1/8", 2, "≈ 0.13"),
    ("0.125", 3, "0.125"), ("2.5", 0, "≈ 3"), ("-2.5", 0, "≈ -3"), ("1896.2", 0, "≈ 1896"), ("0.5", 5, "0.50000"),
    ("1/3", 5, "≈ 0.33333"), ("10^20 + 0.5", 1, "100000000000000000000.5"), ("sqrt(2)", 2, "≈ 1.41"),
    ("pi*1e6", 2, "≈ 3141592.65"), ("-pi", 4, "≈ -3.1416"), ("sqrt(2)^2", 3, "≈ 2.000"), ("2pi", 0, "≈ 6"),
    ("9^9^9", 2, "≈ 4.281247732e369693099"),
  ])
  func fixed(_ input: String, _ places: Int, _ expected: String) throws {
    #expect(Self.formatter(.fixed(places)).format(try Self.value(input)) == expected, "\(input)")
  }

  @Test(arguments: [
    ("1896.2", 10, "1.896200000e3"), ("1/3", 10, "3.333333333…e-1"), ("1896", 10, "1896"),
    ("-0.00125", 10, "-1.250000000e-3"), ("sqrt(2)", 10, "≈ 1.414213562e0"), ("2^-100", 10, "7.888609052…e-31"),
    ("123456789012.5", 10, "1.234567890…e11"), ("1896.2", 3, "1.89…e3"), ("0.5", 1, "5e-1"),
    ("pi*1e-20", 5, "≈ 3.1416e-20"), ("sqrt(2)^2", 4, "≈ 2.000e0"),
  ])
  func scientific(_ input: String, _ digits: Int, _ expected: String) throws {
    #expect(Self.formatter(.scientific, digits: digits).format(try Self.value(input)) == expected, "\(input)")
  }

  @Test(arguments: [
    ("18962.5", 10, "18.96250000e3"), ("0.00012", 10, "120.0000000e-6"), ("1/3", 10, "333.3333333…e-3"),
    ("1896.2", 10, "1.896200000e3"), ("sqrt(2)*1e5", 10, "≈ 141.4213562e3"), ("0.5", 10, "500.0000000e-3"),
    ("-12345.5", 10, "-12.34550000e3"), ("18962.5", 1, "18…e3"), ("1.5e-10", 4, "150.0e-12"),
  ])
  func engineering(_ input: String, _ digits: Int, _ expected: String) throws {
    #expect(Self.formatter(.engineering, digits: digits).format(try Self.value(input)) == expected, "\(input)")
  }

  @Test(arguments: [
    ("1234567.5", "1,234,567.5"), ("2^64", "18,446,744,073,709,551,616"), ("-1234.5", "-1,234.5"),
    ("999.5", "999.5"), ("1000", "1,000"), ("-999", "-999"), ("1e9*pi", "≈ 3,141,592,654"),
    ("10^7/3", "3,333,333.333…"), ("0.000123", "0.000123"), ("1/3", "0.3333333333…"),
  ])
  func separators(_ input: String, _ expected: String) throws {
    #expect(Self.formatter(separators: true).format(try Self.value(input)) == expected, "\(input)")
  }

  @Test func separatorsWithFixedDecimals() throws {
    #expect(Self.formatter(.fixed(2), separators: true).format(try Self.value("1234567.891")) == "≈ 1,234,567.89")
    #expect(Self.formatter(.fixed(2), separators: true).format(try Self.value("-1234.5")) == "-1,234.50")
  }

  /// The style's name is what the settings keep, and it reads back.
  @Test func styleNamesReadBack() {
    for style: ReckonCore.NumberFormatter.Style in [
      .automatic, .fixed(0), .fixed(2), .fixed(1000), .scientific, .engineering,
    ] {
      #expect(ReckonCore.NumberFormatter.Style(name: style.name) == style)
    }
    for bad in ["", "fixed", "fixed -1", "fixed 1001", "fixed 2 3", "Auto", "sci 2", "scientific"] {
      #expect(ReckonCore.NumberFormatter.Style(name: bad) == nil, "\(bad)")
    }
  }

  // MARK: Other bases

  @Test(arguments: [
    ("255", 16, "0x", "0xff"), ("255", 8, "0o", "0o377"), ("255", 2, "0b", "0b11111111"),
    ("255", 3, nil, "100110 (base 3)"), ("255", 36, nil, "73 (base 36)"), ("-255", 16, "0x", "-0xff"),
    ("0", 16, "0x", "0x0"), ("2^64", 16, "0x", "0x10000000000000000"), ("0.5", 2, "0b", "0b0.1"),
    ("0.1", 2, "0b", "0b0.0001100110011…"), ("1/3", 16, "0x", "0x0.5555555555…"), ("255.5", 16, "0x", "0xff.8"),
    ("1/3", 3, nil, "0.1 (base 3)"), ("1/6", 6, nil, "0.1 (base 6)"), ("1/6", 12, nil, "0.2 (base 12)"),
    ("0.1", 10, nil, "0.1 (base 10)"), ("1/9", 3, nil, "0.01 (base 3)"), ("1/256", 16, "0x", "0x0.01"),
    ("3/7", 2, "0b", "0b0.01101101101…"), ("2^40 + 0.5", 16, "0x", "0x10000000000.8"),
    ("2^40 + 1/3", 16, "0x", "0x10000000000.5…"), ("-0.75", 2, "0b", "-0b0.11"),
    ("2^-100", 2, "0b", "0b0." + String(repeating: "0", count: 99) + "1"),
    ("sqrt(2)", 16, "0x", "≈ 0x1.6a09e667f"), ("pi", 2, "0b", "≈ 0b11.001001"),
    ("-sqrt(2)", 16, "0x", "≈ -0x1.6a09e667f"),
    ("pi", 3, nil, "≈ 10.01021102 (base 3)"), ("e*1000", 16, "0x", "≈ 0xa9e.4825e8f"), ("2pi/pi", 2, "0b", "0b10"),
    (
      "2^(10^10)", 16, "0x",
      "refused: too large to write in base 16 with 10 significant digits: its integer part has 2,500,000,001 digits, and only the first 10 are known"
    ),
    (
      "1e-2000", 16, "0x",
      "refused: too small to write in base 16: its first digit would be more than 1,000 places after the point"
    ),
    (
      "sqrt(2)/1e2000", 2, "0b",
      "refused: too small to write in base 2: its first digit would be more than 1,000 places after the point"
    ),
  ])
  func inBase(_ input: String, _ radix: Int, _ prefix: String?, _ expected: String) throws {
    let text = Self.text(Self.formatter().inBase(try Self.value(input), radix: radix, prefix: prefix))
    #expect(text == expected, "\(input) in base \(radix)")
  }

  /// Separators group other bases' digits in fours with `_` (as Python's format(n, '_x') does),
  /// which Reckon reads back.
  @Test(arguments: [
    ("2^32 - 1", 16, "0x", "0xffff_ffff"), ("255", 2, "0b", "0b1111_1111"), ("256", 2, "0b", "0b1_0000_0000"),
    ("2^64", 16, "0x", "0x1_0000_0000_0000_0000"), ("511", 8, "0o", "0o777"), ("4095", 8, "0o", "0o7777"),
    ("4096", 8, "0o", "0o1_0000"), ("65535.5", 16, "0x", "0xffff.8"), ("65536.5", 16, "0x", "0x1_0000.8"),
  ])
  func inBaseWithSeparators(_ input: String, _ radix: Int, _ prefix: String, _ expected: String) throws {
    let value = try Self.value(input)
    let text = Self.text(Self.formatter(separators: true).inBase(value, radix: radix, prefix: prefix))
    #expect(text == expected, "\(input)")
    #expect(try Self.value(text) == value)
  }

  /// Every integer and every terminating fraction written with a prefix reads back as itself.
  @Test func basedTextReadsBack() throws {
    var rng = PropertyTests.Generator(state: 11)
    for _ in 0..<2000 {
      let numerator = BigInteger(Int64.random(in: -1_000_000_000_000...1_000_000_000_000, using: &rng))
      let denominator = BigInteger.power(2, Int.random(in: 0...12, using: &rng))
      let value = Number.exact(Rational(numerator: numerator, denominator: denominator))
      for (radix, prefix) in [(16, "0x"), (8, "0o"), (2, "0b")] {
        var formatter = Self.formatter(digits: 100)
        formatter.separators = Bool.random(using: &rng)
        let text = Self.text(formatter.inBase(value, radix: radix, prefix: prefix))
        #expect(!text.contains("…"))
        #expect(try Self.value(text) == value, "\(text)")
      }
    }
  }

  // MARK: Fractions, percentages, full

  @Test(arguments: [
    ("0.75", "3/4"), ("-1.5", "-3/2"), ("3", "3"), ("1/3", "1/3"), ("0.1+0.2", "3/10"), ("0.125", "1/8"),
    ("(1/7)*3", "3/7"), ("round(pi, 4)", "3927/1250"), ("pi", "refused: π is irrational: no fraction is equal to it"),
    ("2pi/3", "refused: 2π/3 is irrational: no fraction is equal to it"),
    ("sqrt(2)", "refused: an approximation (≈) has no exact fraction: its value is only known to some digits"),
  ])
  func fraction(_ input: String, _ expected: String) throws {
    #expect(Self.text(Self.formatter().fraction(try Self.value(input))) == expected, "\(input)")
  }

  @Test func fractionWithSeparators() throws {
    let text = Self.text(Self.formatter(separators: true).fraction(try Self.value("2^70/3")))
    #expect(text == "1,180,591,620,717,411,303,424/3")
  }

  @Test(arguments: [
    ("0.125", "12.5%"), ("1/3", "33.33333333…%"), ("2", "200%"), ("pi", "≈ 314.1592654%"), ("-0.5", "-50%"),
    ("sqrt(2)", "≈ 141.4213562%"), ("0", "0%"), ("15%", "15%"),
  ])
  func percent(_ input: String, _ expected: String) throws {
    #expect(Self.formatter().percent(try Self.value(input)) == expected, "\(input)")
  }

  @Test(arguments: [
    ("1/6", "1/6 = 0.1[6]"), ("1/7", "1/7 = 0.[142857]"), ("-22/7", "-22/7 = -3.[142857]"),
    ("1/12", "1/12 = 0.08[3]"), ("10^20/3", "100000000000000000000/3 = 33333333333333333333.[3]"),
    (
      "1/97",
      "1/97 = 0.[010309278350515463917525773195876288659793814432989690721649484536082474226804123711340206185567]"
    ),
    ("1/(3*2^50)", "1/3377699720527872 = 0.00000000000000029605947323337507744630177815755208[3]"),
    ("2pi", "2π ≈ 6.283185307"), ("pi^2/6", "π^2/6 ≈ 1.644934067"), ("3/(2pi)", "3/(2π) ≈ 0.4774648293"),
    ("e^-2", "1/e^2 ≈ 0.1353352832"), ("-pi/2", "-π/2 ≈ -1.570796327"), ("pi*e", "π·e ≈ 8.539734223"),
    ("e/pi", "e/π ≈ 0.8652559794"), ("1/(pi*e)", "1/(π·e) ≈ 0.117099663"),
    (
      "10000*1.07^30",
      "76122.55042662029206648128983778031607830320888857736765034249"
    ), ("2^70", "1180591620717411303424"),
    ("sqrt(2)", "refused: an approximation (≈) has no full form: its digits never end, and only some are known"),
  ])
  func full(_ input: String, _ expected: String) throws {
    #expect(Self.text(Self.formatter().full(try Self.value(input))) == expected, "\(input)")
  }

  /// The symbolic forms read back as the same value.
  @Test(arguments: ["2pi", "pi^2/6", "3/(2pi)", "e^-2", "-pi/2", "pi*e", "e/pi", "1/(pi*e)", "7pi^3/(5e^2)"])
  func symbolicFormsReadBack(_ input: String) throws {
    guard case .multiple(let r, let c) = try Self.value(input) else {
      Issue.record("\(input) is not a multiple of π and e")
      return
    }
    let written = ReckonCore.NumberFormatter.symbolic(r, c)
    #expect(try Self.value(written) == .multiple(r, c), "\(written)")
  }

  /// A cycle longer than the bound is cut, and says so.
  @Test func longCyclesAreCut() throws {
    let text = Self.text(Self.formatter().full(try Self.value("1/1000003")))
    // 1/1000003 repeats every 166,667 decimals (Python: the order of 10 modulo 1000003).
    #expect(text.hasPrefix("1/1000003 = 0.000000999997000008999973000080999757000728997813006560980317"))
    #expect(text.hasSuffix("… (the first 10,000 decimals; they repeat in a cycle of more than 10,000)"))
    let digits = text.split(separator: ".")[1].prefix { $0.isNumber }
    #expect(digits.count == 10_000)
    let tiny = Self.text(Self.formatter().full(try Self.value("1/(3*2^20000)")))
    #expect(tiny.hasSuffix("… (the first 10,000 decimals; a cycle of repeating decimals starts after 20,000)"))
  }

  /// The machine-word cut of a long value gives the digits `GMP`'s gives, for decimals that end
  /// (`256.17^4`: more places than `digits`) and those that do not, at every `digits` it takes.
  @Test func theMachineCutAgreesWithTheBigOne() {
    var random = SystemRandomNumberGenerator()
    var compared = 0
    for _ in 0..<4000 {
      let digits = Int.random(in: 1...22, using: &random)
      let formatter = Self.formatter(digits: digits)
      let twos = Int.random(in: 0...30, using: &random)
      let fives = Int.random(in: 0...20, using: &random)
      var den: UInt64 = 1 << twos
      for _ in 0..<fives where den < 1 << 56 { den *= 5 }
      if Bool.random(using: &random) { den = den * UInt64.random(in: 1...7, using: &random) }
      guard den < 1 << 59 else { continue }
      let n = Int64.random(in: -(1 << 60)...(1 << 60), using: &random) >> Int64.random(in: 0...58, using: &random)
      guard n != 0, let small = formatter.smallTruncated(n, den) else { continue }
      let big = (n < 0 ? "-" : "") + formatter.truncated(BigInteger(n.magnitude), BigInteger(den))
      #expect(small == big, "\(n)/\(den) at \(digits) digits")
      compared += 1
    }
    #expect(compared > 2000)
  }
}
