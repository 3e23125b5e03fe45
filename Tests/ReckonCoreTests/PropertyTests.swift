import Foundation
import Testing

@testable import ReckonCore

/// Properties checked over many generated values (a fixed seed, so failures reproduce).
@Suite struct PropertyTests {
  struct Generator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  /// For random amounts and 1…50 people: the shares add up to the amount to the cent and
  /// differ by at most one cent.
  @Test func splitSharesAddUpAndDifferByACentAtMost() {
    var rng = Generator(state: 1)
    for _ in 0..<5000 {
      let cents = Int64.random(in: 1...10_000_000, using: &rng)
      let extra = Int64.random(in: 0...999, using: &rng)  // amounts with a third decimal too
      let amount = Rational(cents * 1000 + extra, 100_000)
      let ways = Int.random(in: 1...50, using: &rng)
      let split = Split(amount: amount, ways: ways)
      let shares = split.shares
      #expect(shares.count == ways)
      #expect(shares.reduce(BigInteger(0), +) == Money.cents(amount))
      #expect(shares.max()! - shares.min()! <= 1)
      #expect(split.totalCents == Money.cents(amount))
    }
  }

  /// The tip and the total are consistent as shown: amount + tip = total, to the cent.
  @Test func tipAddsUpAsShown() {
    var rng = Generator(state: 2)
    for _ in 0..<5000 {
      let amount = Rational(Int64.random(in: 1...100_000_000, using: &rng), Int64.random(in: 1...1000, using: &rng))
      let percent = Rational(Int64.random(in: 0...5000, using: &rng), 100)
      let tip = Tip(amount: amount, percent: percent)
      #expect(tip.amountCents + tip.tipCents == tip.totalCents)
      #expect(tip.amountCents == Money.cents(amount))
      let rounded = tip.roundedUp
      #expect(rounded.totalCents % 100 == 0)
      #expect(rounded.totalCents >= tip.totalCents && rounded.totalCents - tip.totalCents < 100)
      #expect(rounded.amountCents + rounded.tipCents == rounded.totalCents)
    }
  }

  /// A terminating result in full (`full`) reads back as the same value; printed in the
  /// automatic format it is the same text when it fits the digits setting, and otherwise its
  /// first digits, cut (not rounded) and marked `…`.
  @Test func printedExactResultsReadBack() throws {
    var rng = Generator(state: 3)
    let formatter = ReckonCore.NumberFormatter()
    var cut = 0
    for _ in 0..<5000 {
      let numerator =
        BigInteger(Int64.random(in: -1_000_000_000_000...1_000_000_000_000, using: &rng))
        * BigInteger(Int64.random(in: 1...1_000_000_000, using: &rng))
      let denominator =
        BigInteger.power(2, Int.random(in: 0...80, using: &rng))
        * BigInteger.power(5, Int.random(in: 0...40, using: &rng))
      let value = Rational(numerator: numerator, denominator: denominator)
      guard case .text(let full) = formatter.full(.exact(value)) else {
        Issue.record("no full text for \(value)")
        continue
      }
      #expect(!full.contains("…"))
      let back = try Evaluator().evaluate(Parser.parseExpression(full), in: Environment())
      #expect(back == .rational(value), "\(full)")
      let text = formatter.format(value)
      if !text.hasSuffix("…") && !text.contains("e") {
        #expect(text == full)
      } else if !text.contains("e") {
        cut += 1
        #expect(full.hasPrefix(text.dropLast()) && full.count > text.count - 1, "\(text) is not the start of \(full)")
      }
    }
    #expect(cut > 100)
  }

  /// Int64 fast path and GMP agree: arithmetic near the overflow boundary is exact.
  @Test func fastPathAgreesWithBigIntegers() {
    var rng = Generator(state: 4)
    let edges: [Int64] = [.max, .min, .max - 1, .min + 1, 1 << 32, -(1 << 32), 3_037_000_499, 1, -1, 2]
    for _ in 0..<5000 {
      let a = Rational(edges.randomElement(using: &rng)!, Int64.random(in: 1...Int64.max, using: &rng))
      let b = Rational(
        Int64.random(in: .min ... .max, using: &rng), edges.filter { $0 != 0 }.randomElement(using: &rng)!)
      let big = { (x: Rational) in (x.numerator, x.denominator) }
      let (an, ad) = big(a)
      let (bn, bd) = big(b)
      #expect(a + b == Rational(numerator: an * bd + bn * ad, denominator: ad * bd))
      #expect(a - b == Rational(numerator: an * bd - bn * ad, denominator: ad * bd))
      #expect(a * b == Rational(numerator: an * bn, denominator: ad * bd))
      if !b.isZero { #expect(a / b == Rational(numerator: an * bd, denominator: ad * bn)) }
      #expect((a < b) == (an * bd < bn * ad))
    }
  }

  /// GMP's integer square root, through the wrapper, agrees with the definition:
  /// r² ≤ n < (r+1)².
  @Test func integerSquareRootIsExact() {
    var rng = Generator(state: 5)
    for _ in 0..<300 {
      let n = BigIntegerTests.random(words: Int.random(in: 1...40, using: &rng), &rng)
      let r = n.squareRoot
      #expect(r * r <= n && (r + 1) * (r + 1) > n, "\(n)")
      #expect((n * n).squareRoot == n)
    }
  }

  /// Rounding to cents is half away from zero, exactly.
  @Test(arguments: [
    ("0.005", "0.01"), ("0.015", "0.02"), ("0.025", "0.03"), ("-0.005", "-0.01"), ("2.675", "2.68"),
    ("1.004999", "1.00"), ("10", "10.00"), ("0", "0.00"), ("-1.234", "-1.23"), ("123456789.995", "123456790.00"),
  ])
  func moneyRoundsHalfAwayFromZero(_ input: String, _ expected: String) throws {
    guard let r = try Evaluator().evaluate(Parser.parseExpression(input), in: Environment()).exact else {
      Issue.record("not exact")
      return
    }
    #expect(Money.format(r) == expected)
  }

  /// The text `settingsFree` gives (the session prints it without reading the settings) is
  /// what every digits setting, format and separators setting prints; it is given for small
  /// integers only. Other integers print in full in every format (separators only group them).
  @Test func settingsFreeTextIsWhatEverySettingPrints() {
    var rng = Generator(state: 7)
    let styles: [ReckonCore.NumberFormatter.Style] = [.automatic, .fixed(0), .fixed(2), .scientific, .engineering]
    for round in 0..<3000 {
      let r: Rational =
        switch round % 3 {
        case 0: Rational(Int.random(in: -1500...1500, using: &rng))
        case 1: Rational(BigInteger(Int64.random(in: -1_000_000_000_000...1_000_000_000_000, using: &rng)))
        default: Rational(Int64.random(in: -10_000...10_000, using: &rng), Int64.random(in: 1...64, using: &rng))
        }
      let free = ReckonCore.NumberFormatter.settingsFree(r)
      #expect((free != nil) == (r.isInteger && r.magnitude < 1000), "\(r)")
      for style in styles {
        for separators in [false, true] {
          var formatter = ReckonCore.NumberFormatter(digits: Int.random(in: 1...30, using: &rng))
          formatter.style = style
          formatter.separators = separators
          let text = formatter.format(r)
          if let free { #expect(text == free, "\(r) in \(style.name)") }
          if r.isInteger {
            #expect(text.filter { $0 != "," } == r.numerator.string(), "\(r) in \(style.name)")
            #expect(text.contains(",") == (separators && r.magnitude >= 1000), "\(text)")
          }
        }
      }
    }
  }
}

/// The GMP wrapper's integers: text in base 16 against the words they were made of, text in
/// base 10 against Python's `int`, exact roots, and the gcd against Euclid's algorithm written
/// here, at every size up to several thousand bits.
@Suite struct BigIntegerTests {
  /// A number of `words` random 64-bit words, built by shifts and additions.
  static func random(words: Int, _ rng: inout PropertyTests.Generator) -> BigInteger {
    var n = BigInteger.zero
    for _ in 0..<words { n = (n << 64) + BigInteger(rng.next()) }
    return n
  }

  @Test func hexTextIsTheWordsItWasMadeOf() {
    var rng = PropertyTests.Generator(state: 9)
    for words in [1, 2, 3, 39, 40, 41, 160, 333] {
      let parts = (0..<words).map { _ in rng.next() }
      var n = BigInteger.zero
      for w in parts { n = (n << 64) + BigInteger(w) }
      var hex = parts.map { String($0, radix: 16) }
      for i in hex.indices.dropFirst() { hex[i] = String(repeating: "0", count: 16 - hex[i].count) + hex[i] }
      let expected = String(hex.joined().drop { $0 == "0" })
      #expect(n.string(base: 16) == (expected.isEmpty ? "0" : expected), "\(words) words")
      #expect((-n).string(base: 16) == "-" + expected)
    }
  }

  /// `leadingDigits` (what `vars` shows of a huge number) is the start and length of the
  /// decimal text, on both sides of every power of ten, where its first estimate of the
  /// length is one too many.
  @Test func leadingDigitsAreTheStartOfTheText() {
    var rng = PropertyTests.Generator(state: 12)
    var numbers: [BigInteger] = [0, 1, 9, 10, 99, 100, -7]
    for digits in [29, 30, 31, 32, 60, 301, 1000] {
      let ten = BigInteger.power(10, digits)
      numbers += [ten - 1, ten, ten + 1, -ten, ten * 9 + 99]
    }
    for words in [1, 2, 7, 40, 333] { numbers.append(Self.random(words: words, &rng)) }
    for n in numbers {
      let text = n.magnitude.string()
      for leading in [1, 5, 30] {
        let (count, digits) = n.leadingDigits(leading)
        #expect(count == text.count, "\(n)")
        #expect(digits == String(text.prefix(leading)), "\(n) \(leading)")
      }
    }
  }

  @Test func decimalTextAgreesWithPython() throws {
    var rng = PropertyTests.Generator(state: 10)
    var numbers: [BigInteger] = [0, 1, 9, 10, BigInteger(UInt64.max), -BigInteger(UInt64.max)]
    for words in [1, 2, 19, 40, 81, 333] {
      numbers.append(Self.random(words: words, &rng))
      numbers.append(BigInteger.power(10, words * 19) - 1)
      numbers.append(-BigInteger.power(10, words * 19))
    }
    // Python reads each number in hexadecimal and prints it in decimal.
    let script = "import sys\nsys.set_int_max_str_digits(0)\nfor line in sys.stdin: print(int(line, 16))"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    input.fileHandleForWriting.write(Data(numbers.map { $0.string(base: 16) + "\n" }.joined().utf8))
    try input.fileHandleForWriting.close()
    let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let expected = printed.split(separator: "\n").map(String.init)
    #expect(expected.count == numbers.count)
    for (n, text) in zip(numbers, expected) {
      #expect(n.string() == text)
      #expect(n.description == text)
      let digits = text.hasPrefix("-") ? String(text.dropFirst()) : text
      #expect(BigInteger(decimal: digits) == n.magnitude)
      #expect(BigInteger(decimal: "000" + digits) == n.magnitude)
    }
    #expect(BigInteger(decimal: "12a") == nil && BigInteger(decimal: "") == nil && BigInteger(decimal: "-1") == nil)
  }

  /// Exact n-th roots: perfect powers are found, their neighbours are not.
  @Test(arguments: [2, 3, 4, 5, 7, 12])
  func perfectPowersAndTheirNeighbours(_ n: Int) {
    var rng = PropertyTests.Generator(state: UInt64(n))
    for words in [1, 2, 3, 5, 9, 20, 40] {
      let root = Self.random(words: words, &rng) | 1
      let power = root.power(n)
      #expect(power.exactRoot(n) == root, "\(words) words")
      #expect((power + 1).exactRoot(n) == nil)
      #expect((power - 1).exactRoot(n) == nil)
      if n % 2 == 1 { #expect((-power).exactRoot(n) == -root) } else { #expect((-power).exactRoot(n) == nil) }
    }
  }

  /// Euclid's algorithm, written here with the wrapper's remainder.
  static func euclid(_ a: BigInteger, _ b: BigInteger) -> BigInteger {
    var (a, b) = (a.magnitude, b.magnitude)
    while !b.isZero { (a, b) = (b, a % b) }
    return a
  }

  static func pairs() -> [(BigInteger, BigInteger)] {
    var rng = PropertyTests.Generator(state: 77)
    var pairs: [(BigInteger, BigInteger)] = []
    for (x, y, common) in [(2, 2, 0), (2, 3, 1), (5, 5, 3), (9, 2, 2), (40, 39, 7), (60, 1, 1), (3, 80, 20)] {
      let c = common == 0 ? BigInteger.one : random(words: common, &rng)
      pairs.append((random(words: x, &rng) * c, random(words: y, &rng) * c))
    }
    var (f0, f1) = (BigInteger.zero, BigInteger.one)
    for _ in 0..<1500 { (f0, f1) = (f1, f0 + f1) }
    pairs.append((f1, f0))
    pairs.append((f1 * 12, f0 * 18))
    pairs.append((BigInteger.power(5, 3000) * BigInteger.power(3, 200), BigInteger.power(15, 900)))
    pairs.append((BigInteger.one << 1000, (BigInteger.one << 999) * 3))
    return pairs
  }

  @Test func gcdAgreesWithEuclid() {
    for (a, b) in Self.pairs() {
      let expected = Self.euclid(a, b)
      #expect(BigInteger.gcd(a, b) == expected, "\(a.bitWidth) and \(b.bitWidth) bits")
      #expect(BigInteger.gcd(b, -a) == expected)
    }
  }

  @Test func sumsAndReciprocalsAreInLowestTerms() {
    let pairs = Self.pairs()
    for ((an, ad), (bn, bd)) in zip(pairs, pairs.dropFirst()) where !ad.isZero && !bd.isZero {
      let a = Rational(numerator: an, denominator: ad)
      let b = Rational(numerator: -bn, denominator: bd)
      for sum in [a + b, a + a, a + Rational(7), b - b] {
        let (n, d) = (sum.numerator, sum.denominator)
        #expect(Self.euclid(n, d) == 1 || (n.isZero && d == 1))
      }
      let naive = an * bd - bn * ad
      #expect((a + b) * Rational(numerator: ad * bd, denominator: 1) == Rational(naive))
      let r = b.reciprocal
      #expect(!r.denominator.isNegative && r * b == .one && r.numerator.isNegative)
    }
  }
}
