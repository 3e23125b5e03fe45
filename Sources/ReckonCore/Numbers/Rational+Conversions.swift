import BigInt

extension Rational {
  /// The exact value of a finite `Double` (every finite double is a dyadic rational).
  public init?(exactly value: Double) {
    guard value.isFinite else { return nil }
    if value == 0 {
      self = .zero
      return
    }
    var m = value
    var shift = 0
    while m != m.rounded(.towardZero) {
      m *= 2
      shift += 1
    }
    guard let n = BigInt(exactly: m) else { return nil }
    self.init(numerator: n, denominator: BigInt(1) << shift)
  }

  /// The nearest `Double` (infinite when out of range).
  public var doubleValue: Double {
    if case .small(let n, let d) = storage, n.magnitude < (1 << 53), d < (1 << 53) {
      return Double(n) / Double(d)
    }
    let n = numerator
    let d = denominator
    if n.isZero { return 0 }
    // Scale so the quotient carries about 64 significant bits, then undo the scale.
    let e = n.magnitude.bitWidth - d.magnitude.bitWidth
    let k = 64 - e
    let q = k >= 0 ? (n << k) / d : n / (d << -k)
    let approx = Double(q)
    return approx * pow2(-k)
  }

  /// The value as `m · 2^e` with `m` a Double near 1, for values far beyond a Double's range:
  /// only the top 64 bits of numerator and denominator are used, so it is fast at any size.
  public var binaryParts: (mantissa: Double, exponent: Int) {
    let n = numerator.magnitude
    let d = denominator.magnitude
    let sn = Swift.max(0, n.bitWidth - 64)
    let sd = Swift.max(0, d.bitWidth - 64)
    let m = Double(n >> sn) / Double(d >> sd)
    return (isNegative ? -m : m, sn - sd)
  }

  private func pow2(_ e: Int) -> Double {
    // Split the scaling so intermediate steps neither overflow nor flush to zero early.
    var result = 1.0
    var e = e
    while e > 1000 {
      result *= Double(sign: .plus, exponent: 1000, significand: 1)
      e -= 1000
    }
    while e < -1000 {
      result *= Double(sign: .plus, exponent: -1000, significand: 1)
      e += 1000
    }
    return result * Double(sign: .plus, exponent: e, significand: 1)
  }

  /// The exact `n`-th root when numerator and denominator are both perfect `n`-th powers.
  /// Negative values have a real root only for odd `n`.
  public func exactRoot(_ n: Int) -> Rational? {
    precondition(n >= 1)
    if n == 1 { return self }
    if isNegative {
      guard n % 2 == 1, let r = magnitude.exactRoot(n) else { return nil }
      return -r
    }
    guard let num = Rational.integerRoot(numerator.magnitude, n),
      let den = Rational.integerRoot(denominator.magnitude, n)
    else { return nil }
    return Rational(numerator: BigInt(num), denominator: BigInt(den))
  }

  /// ⌊√n⌋, recursively: the root of the top half of the bits gives a start good to half the
  /// precision, and one or two Newton steps finish it. BigInt's own Newton starts from a power
  /// of two and needs a full-size division per bit of precision gained at first (2 s for a
  /// 100,000-digit square).
  static func squareRoot(_ n: BigUInt) -> BigUInt {
    if n.bitWidth <= 128 { return n.squareRoot() }
    let k = n.bitWidth / 4
    // ⌊√(n / 4^k)⌋ + 1, scaled back, is at least √n: Newton then only comes down.
    var x = (squareRoot(n >> (2 * k)) + 1) << k
    while true {
      let y = (x + n / x) >> 1
      if y >= x { return x }
      x = y
    }
  }

  /// Whether `r` is a square modulo `m` (small m: a direct search).
  static func isSquare(_ r: UInt64, modulo m: UInt64) -> Bool {
    (0..<m).contains { $0 * $0 % m == r }
  }

  /// The exact integer `n`-th root of `x`, or nil when `x` is not a perfect `n`-th power.
  static func integerRoot(_ x: BigUInt, _ n: Int) -> BigUInt? {
    if x <= 1 { return x }
    let bits = x.bitWidth
    if n >= bits { return nil }  // 2^n > x > 1: no integer root
    // x = 2^t · odd is an n-th power only if n divides t; then root = 2^(t/n) · root(odd).
    let twos = x.trailingZeroBitCount
    if twos > 0 {
      guard twos % n == 0, let odd = integerRoot(x >> twos, n) else { return nil }
      return odd << (twos / n)
    }
    if n == 2 {
      // Most non-squares fail a residue test at once: squares are 0, 1, 4, 9, … mod 64 and
      // mod 63·65·11; only candidates pay for the big square root.
      let low = UInt64(x.words[0]) & 63
      guard (0x0202_0212_0203_0213 as UInt64) >> low & 1 == 1 else { return nil }
      let m = UInt64((x % 45045).words.first ?? 0)
      for modulus: UInt64 in [63, 65, 11] where !isSquare(m % modulus, modulo: modulus) { return nil }
      let r = Rational.squareRoot(x)
      return r * r == x ? r : nil
    }
    // An n-th power is an n-th power residue modulo every prime p ≡ 1 (mod n): r^((p−1)/n) ≡ 1
    // or r ≡ 0. About 1 in n residues pass each test, so most numbers fail one cheaply.
    var tested = 0
    for p in stride(from: UInt64(n + 1), to: 100_000, by: n) where tested < 8 && isPrime(p) {
      tested += 1
      let residue = UInt64((x % BigUInt(p)).words.first ?? 0)
      if residue != 0 && powerMod(residue, (p - 1) / UInt64(n), p) != 1 { return nil }
    }
    let r = floorRoot(x, n)
    return r.power(n) == x ? r : nil
  }

  /// ⌊x^(1/n)⌋ (n ≥ 3), as `squareRoot` does it: the root of the top bits, scaled back up,
  /// is an overestimate good to half the precision, and Newton's method comes down from it
  /// in a step or two instead of one full-size division per bit.
  static func floorRoot(_ x: BigUInt, _ n: Int) -> BigUInt {
    let k = x.bitWidth / (2 * n)
    var r =
      k == 0
      ? BigUInt(1) << ((x.bitWidth + n - 1) / n)
      : (floorRoot(x >> (n * k), n) + 1) << k
    while true {
      let next = ((r * BigUInt(n - 1)) + x / r.power(n - 1)) / BigUInt(n)
      if next >= r { return r }
      r = next
    }
  }

  static func isPrime(_ p: UInt64) -> Bool {
    if p < 2 { return false }
    var d: UInt64 = 2
    while d * d <= p {
      if p % d == 0 { return false }
      d += 1
    }
    return true
  }

  /// base^exponent mod m, for m < 2^32.
  static func powerMod(_ base: UInt64, _ exponent: UInt64, _ m: UInt64) -> UInt64 {
    var result: UInt64 = 1
    var b = base % m
    var e = exponent
    while e > 0 {
      if e & 1 == 1 { result = result * b % m }
      b = b * b % m
      e >>= 1
    }
    return result
  }
}
