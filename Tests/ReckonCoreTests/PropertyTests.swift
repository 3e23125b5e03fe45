import BigInt
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
      #expect(shares.reduce(BigInt(0), +) == Money.cents(amount))
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

  /// Printing an exact, terminating result and reading it back gives the same value.
  @Test func printedExactResultsReadBack() throws {
    var rng = Generator(state: 3)
    let formatter = NumberFormatter()
    for _ in 0..<5000 {
      let numerator =
        BigInt(Int64.random(in: -1_000_000_000_000...1_000_000_000_000, using: &rng))
        * BigInt(Int64.random(in: 1...1_000_000_000, using: &rng))
      let denominator =
        BigInt(2).power(Int.random(in: 0...80, using: &rng))
        * BigInt(5).power(Int.random(in: 0...40, using: &rng))
      let value = Rational(numerator: numerator, denominator: denominator)
      let text = formatter.format(value)
      #expect(!text.contains("…"))
      let back = try Evaluator().evaluate(Parser.parseExpression(text), in: Environment())
      #expect(back == .exact(value), "\(text)")
    }
  }

  /// Int64 fast path and BigInt agree: arithmetic near the overflow boundary is exact.
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

  /// The fast integer square root agrees with the definition: r² ≤ n < (r+1)².
  @Test func integerSquareRootIsExact() {
    var rng = Generator(state: 5)
    for _ in 0..<300 {
      let words = Int.random(in: 1...40, using: &rng)
      let n = BigUInt(words: (0..<words).map { _ in UInt(rng.next()) })
      let r = Rational.squareRoot(n)
      #expect(r * r <= n && (r + 1) * (r + 1) > n, "\(n)")
      #expect(Rational.squareRoot(n * n) == n)
    }
  }

  /// Rounding to cents is half away from zero, exactly.
  @Test(arguments: [
    ("0.005", "0.01"), ("0.015", "0.02"), ("0.025", "0.03"), ("-0.005", "-0.01"), ("2.675", "2.68"),
    ("1.004999", "1.00"), ("10", "10.00"), ("0", "0.00"), ("-1.234", "-1.23"), ("123456789.995", "123456790.00"),
  ])
  func moneyRoundsHalfAwayFromZero(_ input: String, _ expected: String) throws {
    guard case .exact(let r) = try Evaluator().evaluate(Parser.parseExpression(input), in: Environment()) else {
      Issue.record("not exact")
      return
    }
    #expect(Money.format(r) == expected)
  }

  /// `exactDecimal` gives a value's text exactly when the digits setting cannot change it (the
  /// session prints such values without reading the settings): then it is what `format` prints
  /// at any number of digits; otherwise 3 and 200 digits print differently (the values here have
  /// integer parts under 200 digits).
  @Test func exactDecimalIsTheTextThatNoDigitsSettingChanges() {
    var rng = Generator(state: 7)
    var limited = NumberFormatter(digits: 3)
    limited.maxExactPlaces = 40
    for round in 0..<6000 {
      // Denominators made of 2s and 5s (terminating), of other primes too, and past one word.
      let twos = Int.random(in: 0...70, using: &rng)
      let fives = Int.random(in: 0...(round % 3 == 0 ? 40 : 3), using: &rng)
      let other = [1, 1, 1, 3, 7, 9, 11, 1_000_003][round % 8]
      let denominator = BigInt(2).power(twos) * BigInt(5).power(fives) * BigInt(other)
      var numerator = BigInt(Int64.random(in: -1_000_000_000_000...1_000_000_000_000, using: &rng))
      if round % 5 == 0 { numerator *= BigInt(10).power(Int.random(in: 1...30, using: &rng)) }
      let r = Rational(numerator: numerator, denominator: denominator)
      for base in [NumberFormatter(digits: 10), limited] {
        var few = base
        few.digits = 3
        var many = base
        many.digits = 200
        if let text = base.exactDecimal(r) {
          #expect(text == few.format(r) && text == many.format(r), "\(numerator)/\(denominator)")
        } else {
          #expect(few.format(r) != many.format(r), "\(numerator)/\(denominator)")
        }
      }
    }
    #expect(NumberFormatter().exactDecimal(Rational(1, 3)) == nil)
    #expect(NumberFormatter().exactDecimal(Rational(-5, 8)) == "-0.625")
    #expect(NumberFormatter().exactDecimal(Rational(BigInt(10).power(30))) == "1" + String(repeating: "0", count: 30))
    #expect(limited.exactDecimal(Rational(numerator: 1, denominator: BigInt(2).power(41))) == nil)
  }
}

/// Decimal conversion by halves agrees with BigInt's own, digit for digit, at every size
/// around the points where it splits.
@Suite struct DecimalDigitsTests {
  static func numbers() -> [BigUInt] {
    var rng = PropertyTests.Generator(state: 9)
    var numbers: [BigUInt] = [0, 1, 9, 10, BigUInt(UInt64.max)]
    for words in [1, 39, 40, 41, 79, 80, 81, 160, 333] {
      numbers.append(BigUInt(words: (0..<words).map { _ in UInt(rng.next()) }))
      // Powers of ten and the numbers just below them: runs of zeros and nines at every split.
      let digits = words * 19
      numbers.append(BigUInt(10).power(digits))
      numbers.append(BigUInt(10).power(digits) - 1)
      numbers.append(BigUInt(10).power(digits + 1) + 1)
    }
    return numbers
  }

  @Test func stringsAgreeWithBigInt() {
    for n in Self.numbers() {
      #expect(DecimalDigits.string(n) == String(n), "\(n.bitWidth) bits")
      #expect(DecimalDigits.string(-BigInt(n)) == String(-BigInt(n)))
    }
  }

  @Test func valuesAgreeWithBigInt() {
    for n in Self.numbers() {
      #expect(DecimalDigits.value(String(n)) == n, "\(n.bitWidth) bits")
      #expect(DecimalDigits.value("000" + String(n)) == n, "leading zeros, \(n.bitWidth) bits")
    }
  }
}

/// Exact n-th roots: perfect powers are found, their neighbours are not, and the floor root
/// brackets the number, for roots of every size up to a few thousand bits.
@Suite struct RootTests {
  @Test(arguments: [3, 4, 5, 7, 12])
  func perfectPowersAndTheirNeighbours(_ n: Int) {
    var rng = PropertyTests.Generator(state: UInt64(n))
    for words in [1, 2, 3, 5, 9, 20, 40] {
      let root = BigUInt(words: (0..<words).map { _ in UInt(rng.next()) }) | 1
      let power = root.power(n)
      #expect(Rational.integerRoot(power, n) == root, "\(words) words")
      #expect(Rational.integerRoot(power + 1, n) == nil)
      #expect(Rational.integerRoot(power - 1, n) == nil)
      let x = power + BigUInt(rng.next())
      let floor = Rational.floorRoot(x, n)
      #expect(floor.power(n) <= x && (floor + 1).power(n) > x)
    }
  }
}

/// Lehmer's GCD and the additions and reciprocals that rely on it agree with BigInt's own
/// (binary, slow but simple) GCD on numbers of every shape: equal and very different sizes,
/// large common factors, consecutive Fibonacci numbers (every quotient 1, Lehmer's slowest
/// case) and huge single quotients.
@Suite struct GCDTests {
  static func pairs() -> [(BigUInt, BigUInt)] {
    var rng = PropertyTests.Generator(state: 77)
    func random(_ words: Int) -> BigUInt { BigUInt(words: (0..<words).map { _ in UInt(rng.next()) }) }
    var pairs: [(BigUInt, BigUInt)] = []
    for (x, y, common) in [(2, 2, 0), (2, 3, 1), (5, 5, 3), (9, 2, 2), (40, 39, 7), (60, 1, 1), (3, 80, 20)] {
      let c = common == 0 ? BigUInt(1) : random(common)
      pairs.append((random(x) * c, random(y) * c))
    }
    var (f0, f1) = (BigUInt(0), BigUInt(1))
    for _ in 0..<1500 { (f0, f1) = (f1, f0 + f1) }
    pairs.append((f1, f0))
    pairs.append((f1 * 12, f0 * 18))
    let b = random(4)
    pairs.append(((b << 700) + 1, b))
    pairs.append((BigUInt(5).power(3000) * BigUInt(3).power(200), BigUInt(15).power(900)))
    pairs.append((BigUInt(1) << 1000, (BigUInt(1) << 999) * 3))
    return pairs
  }

  @Test func agreesWithBinaryGCD() {
    for (a, b) in Self.pairs() {
      let expected = a.greatestCommonDivisor(with: b)
      #expect(LehmerGCD.gcd(a, b) == expected, "\(a.bitWidth) and \(b.bitWidth) bits")
      #expect(LehmerGCD.gcd(b, a) == expected)
      #expect(Rational.gcd(a, b) == expected)
    }
  }

  @Test func sumsAndReciprocalsAreInLowestTerms() {
    let pairs = Self.pairs()
    for ((an, ad), (bn, bd)) in zip(pairs, pairs.dropFirst()) where !ad.isZero && !bd.isZero {
      let a = Rational(numerator: BigInt(an), denominator: BigInt(ad))
      let b = Rational(numerator: -BigInt(bn), denominator: BigInt(bd))
      for sum in [a + b, a + a, a + Rational(7), b - b] {
        let (n, d) = (sum.numerator.magnitude, sum.denominator.magnitude)
        #expect(n.greatestCommonDivisor(with: d) == 1 || (n.isZero && d == 1))
      }
      let naive = BigInt(an) * BigInt(bd) - BigInt(bn) * BigInt(ad)
      #expect((a + b) * Rational(numerator: BigInt(ad) * BigInt(bd), denominator: 1) == Rational(naive))
      let r = b.reciprocal
      #expect(r.denominator.sign == .plus && r * b == .one && r.numerator.sign == .minus)
    }
  }

}
