import BigInt

/// An exact rational number, always in lowest terms with a positive denominator.
///
/// Small values live in two `Int64`s and use overflow-reporting arithmetic (about 25×
/// faster than BigInt); any operation that would overflow falls back to `BigInt`, and a
/// big result that fits again comes back to the small form. Nothing here ever traps.
public struct Rational: Sendable, Hashable {
  @usableFromInline
  enum Storage: Sendable, Hashable {
    case small(Int64, Int64)
    case big(BigInt, BigInt)
  }

  @usableFromInline
  var storage: Storage

  @inlinable
  init(storage: Storage) { self.storage = storage }

  /// Zero.
  public static let zero = Rational(storage: .small(0, 1))
  /// One.
  public static let one = Rational(storage: .small(1, 1))

  /// The integer `value`.
  public init(_ value: Int) { storage = .small(Int64(value), 1) }

  /// The integer `value`.
  public init(_ value: BigInt) { self.init(numerator: value, denominator: 1) }

  /// `numerator / denominator`, reduced. The denominator must not be zero.
  public init(numerator: BigInt, denominator: BigInt) {
    precondition(!denominator.isZero, "zero denominator")
    var n = numerator
    var d = denominator
    if d.sign == .minus {
      n.negate()
      d.negate()
    }
    let g = Rational.gcd(n.magnitude, d.magnitude)
    if g != 1 {
      n /= BigInt(g)
      d /= BigInt(g)
    }
    self = Rational.normalized(n, d)
  }

  /// `numerator / denominator` for machine integers, reduced. The denominator must not be zero.
  public init(_ numerator: Int64, _ denominator: Int64) {
    precondition(denominator != 0, "zero denominator")
    if let small = Rational.reducedSmall(numerator, denominator) {
      self = small
    } else {
      self.init(numerator: BigInt(numerator), denominator: BigInt(denominator))
    }
  }

  /// Stores an already reduced pair in the small form when both parts fit.
  static func normalized(_ n: BigInt, _ d: BigInt) -> Rational {
    if let sn = Int64(exactly: n), let sd = Int64(exactly: d) {
      return Rational(storage: .small(sn, sd))
    }
    return Rational(storage: .big(n, d))
  }

  /// Reduces `n/d` in machine integers, or returns nil when that would overflow.
  @inlinable
  static func reducedSmall(_ n: Int64, _ d: Int64) -> Rational? {
    var n = n
    var d = d
    if d < 0 {
      if n == .min || d == .min { return nil }
      n = -n
      d = -d
    }
    let g = gcd(n.magnitude, d.magnitude)
    if g > 1 {
      n /= Int64(g)
      d /= Int64(g)
    }
    return Rational(storage: .small(n, d))
  }

  /// The greatest common divisor of big integers, with fast paths for the common cases
  /// (one side 0 or 1, or small enough for a machine word), and Lehmer's algorithm for the
  /// rest: BigInt's own binary GCD shifts one bit at a time, so gcd(25000!, 1) alone took
  /// over a second.
  static func gcd(_ a: BigUInt, _ b: BigUInt) -> BigUInt {
    if a.isZero { return b }
    if b.isZero { return a }
    if a == 1 || b == 1 { return 1 }
    // A power of two shares only twos: gcd(a, 2^k) = 2^min(k, trailing zeros of a).
    for (p, other) in [(a, b), (b, a)] where p.trailingZeroBitCount == p.bitWidth - 1 {
      return BigUInt(1) << Swift.min(p.bitWidth - 1, other.trailingZeroBitCount)
    }
    let (big, small) = a.words.count >= b.words.count ? (a, b) : (b, a)
    if small.words.count == 1 {
      let w = UInt64(small.words[0])
      let r = UInt64((big % small).words.first ?? 0)
      return BigUInt(gcd(w, r))
    }
    return LehmerGCD.gcd(a, b)
  }

  @inlinable
  static func gcd(_ a: UInt64, _ b: UInt64) -> UInt64 {
    var a = a
    var b = b
    while b != 0 { (a, b) = (b, a % b) }
    return a
  }

  // MARK: Parts

  /// The numerator, carrying the sign.
  public var numerator: BigInt {
    switch storage {
    case .small(let n, _): BigInt(n)
    case .big(let n, _): n
    }
  }

  /// The denominator, always positive.
  public var denominator: BigInt {
    switch storage {
    case .small(_, let d): BigInt(d)
    case .big(_, let d): d
    }
  }

  /// Whether the denominator is 1.
  public var isInteger: Bool {
    switch storage {
    case .small(_, let d): d == 1
    case .big(_, let d): d == 1
    }
  }

  public var isZero: Bool {
    if case .small(0, _) = storage { return true }
    return false
  }

  public var isNegative: Bool {
    switch storage {
    case .small(let n, _): n < 0
    case .big(let n, _): n.sign == .minus && !n.isZero
    }
  }

  /// The value as an `Int` when it is an integer that fits.
  public var intValue: Int? {
    switch storage {
    case .small(let n, 1): Int(exactly: n)
    case .small: nil
    case .big(let n, let d): d == 1 ? Int(exactly: n) : nil
    }
  }

  /// The larger bit width of numerator and denominator: a measure of size for limits.
  public var bitWidth: Int {
    switch storage {
    case .small(let n, let d): 64 - min(n.magnitude.leadingZeroBitCount, d.magnitude.leadingZeroBitCount)
    case .big(let n, let d): max(n.magnitude.bitWidth, d.magnitude.bitWidth)
    }
  }

  /// The bits of the numerator's and the denominator's magnitudes.
  var widths: (numerator: Int, denominator: Int) {
    switch storage {
    case .small(let n, let d): (64 - n.magnitude.leadingZeroBitCount, 64 - d.magnitude.leadingZeroBitCount)
    case .big(let n, let d): (n.magnitude.bitWidth, d.magnitude.bitWidth)
    }
  }

  /// At least the bit width of `x + y` (or `x − y`), from the operands' sizes alone: a/b + c/d
  /// is (ad + cb)/bd before reducing. Two integers' sum is barely wider than the wider one,
  /// where adding the two widths (as for a product) would refuse 20000! + 20000!.
  public static func sumBitWidthBound(_ x: Rational, _ y: Rational) -> Int {
    let (a, b) = x.widths
    let (c, d) = y.widths
    return max(max(a + d, c + b) + 1, b + d)
  }

  /// At least the bit width of `x · y`: (a/b)(c/d) is ac/bd before reducing.
  public static func productBitWidthBound(_ x: Rational, _ y: Rational) -> Int {
    let (a, b) = x.widths
    let (c, d) = y.widths
    return max(a + c, b + d)
  }

  /// At least the bit width of `x / y`: (a/b)/(c/d) is ad/bc before reducing, so one integer
  /// over another is no wider than the wider one (2·20000! / 20000! is 2).
  public static func quotientBitWidthBound(_ x: Rational, _ y: Rational) -> Int {
    let (a, b) = x.widths
    let (c, d) = y.widths
    return max(a + d, b + c)
  }

  // MARK: Arithmetic

  public static prefix func - (x: Rational) -> Rational {
    switch x.storage {
    case .small(let n, let d) where n != .min: return Rational(storage: .small(-n, d))
    default: return normalized(-x.numerator, x.denominator)
    }
  }

  public static func + (a: Rational, b: Rational) -> Rational {
    if case .small(let an, let ad) = a.storage, case .small(let bn, let bd) = b.storage {
      if ad == bd {
        let (s, o) = an.addingReportingOverflow(bn)
        if !o, let r = reducedSmall(s, ad) { return r }
      } else {
        let (x, o1) = an.multipliedReportingOverflow(by: bd)
        let (y, o2) = bn.multipliedReportingOverflow(by: ad)
        let (s, o3) = x.addingReportingOverflow(y)
        let (d, o4) = ad.multipliedReportingOverflow(by: bd)
        if !(o1 || o2 || o3 || o4), let r = reducedSmall(s, d) { return r }
      }
    }
    // Henrici's addition (Knuth 4.5.1): with g = gcd(ad, bd), only g can divide the sum, so
    // the gcd that reduces the result is taken with g, not with the whole denominator;
    // an integer plus a fraction (g = 1) needs no reduction at all.
    let (an, ad, bn, bd) = (a.numerator, a.denominator, b.numerator, b.denominator)
    let g = BigInt(gcd(ad.magnitude, bd.magnitude))
    if g == 1 { return normalized(an * bd + bn * ad, ad * bd) }
    let t = an * (bd / g) + bn * (ad / g)
    let h = BigInt(gcd(t.magnitude, g.magnitude))
    return normalized(t / h, (ad / g) * (bd / h))
  }

  public static func - (a: Rational, b: Rational) -> Rational { a + -b }

  public static func * (a: Rational, b: Rational) -> Rational {
    if a.isZero || b.isZero { return .zero }
    if case .small(let an, let ad) = a.storage, case .small(let bn, let bd) = b.storage {
      // Cross-reduce first so the products stay small and the result is already reduced.
      let g1 = Int64(gcd(an.magnitude, bd.magnitude))
      let g2 = Int64(gcd(bn.magnitude, ad.magnitude))
      let (n, o1) = (an / g1).multipliedReportingOverflow(by: bn / g2)
      let (d, o2) = (ad / g2).multipliedReportingOverflow(by: bd / g1)
      if !(o1 || o2) { return Rational(storage: .small(n, d)) }
    }
    // Cross-reduce, as in the small path: gcd(a.num, b.den) and gcd(b.num, a.den) are
    // cheaper than the gcd of the full products, and the result is already in lowest terms.
    let (an, ad, bn, bd) = (a.numerator, a.denominator, b.numerator, b.denominator)
    let g1 = BigInt(gcd(an.magnitude, bd.magnitude))
    let g2 = BigInt(gcd(bn.magnitude, ad.magnitude))
    return normalized((an / g1) * (bn / g2), (ad / g2) * (bd / g1))
  }

  /// `a / b`; `b` must not be zero.
  public static func / (a: Rational, b: Rational) -> Rational {
    a * b.reciprocal
  }

  /// `1 / self`; `self` must not be zero.
  public var reciprocal: Rational {
    switch storage {
    case .small(let n, let d):
      precondition(n != 0, "reciprocal of zero")
      if n > 0 { return Rational(storage: .small(d, n)) }
      if n != .min { return Rational(storage: .small(-d, -n)) }
      return Rational(numerator: BigInt(d), denominator: BigInt(n))
    case .big(let n, let d):
      // Already coprime: only the sign moves.
      return n.sign == .minus ? Rational.normalized(-d, -n) : Rational.normalized(d, n)
    }
  }

  /// The absolute value.
  public var magnitude: Rational { isNegative ? -self : self }

  /// `self` raised to an integer power. The caller checks sizes first; `0^-n` must not be asked.
  public func power(_ exponent: Int) -> Rational {
    if exponent == 0 { return .one }
    if exponent < 0 { return reciprocal.power(-exponent) }
    // Numerator and denominator are coprime, so their powers are too.
    if case .small(let n, let d) = storage {
      if let r = Rational.smallPower(n, d, exponent) { return r }
      if let pn = Rational.power128(n.magnitude, exponent), let pd = Rational.power128(d.magnitude, exponent) {
        let numerator = BigInt(pn)
        return Rational.normalized(n < 0 && exponent % 2 == 1 ? -numerator : numerator, BigInt(pd))
      }
    }
    return Rational.normalized(numerator.power(exponent), denominator.power(exponent))
  }

  /// `x^e` in 128 bits, or nil when it does not fit (84^11 does; BigInt's power would take
  /// a dozen allocations for it).
  static func power128(_ x: UInt64, _ e: Int) -> UInt128? {
    var result: UInt128 = 1
    var base = UInt128(x)
    var e = e
    while true {
      if e & 1 == 1 {
        let (r, overflow) = result.multipliedReportingOverflow(by: base)
        if overflow { return nil }
        result = r
      }
      e >>= 1
      if e == 0 { return result }
      let (b, overflow) = base.multipliedReportingOverflow(by: base)
      if overflow { return nil }
      base = b
    }
  }

  static func smallPower(_ n: Int64, _ d: Int64, _ e: Int) -> Rational? {
    if d == 1 && n.magnitude <= 1 { return Rational(storage: .small(n < 0 && e % 2 == 1 ? -1 : n * n, 1)) }
    if e > 64 { return nil }  // |n| ≥ 2 or d ≥ 2: it would overflow anyway
    var rn: Int64 = 1
    var rd: Int64 = 1
    for _ in 0..<e {
      let (x, o1) = rn.multipliedReportingOverflow(by: n)
      let (y, o2) = rd.multipliedReportingOverflow(by: d)
      if o1 || o2 { return nil }
      rn = x
      rd = y
    }
    return Rational(storage: .small(rn, rd))
  }

  // MARK: Rounding

  /// The greatest integer not above `self`.
  public var floor: Rational {
    if isInteger { return self }
    let (q, _) = Rational.floorDivide(numerator, denominator)
    return Rational(q)
  }

  /// The least integer not below `self`.
  public var ceiling: Rational { -((-self).floor) }

  /// Rounded to `places` decimal places (negative: to tens, hundreds…), halves away from zero.
  public func rounded(places: Int) -> Rational {
    let scale = Rational(BigInt(10).power(abs(places)))
    let scaled = places >= 0 ? self * scale : self / scale
    let half = Rational(1, 2)
    let r = scaled.isNegative ? -((scaled.magnitude + half).floor) : (scaled + half).floor
    return places >= 0 ? r / scale : r * scale
  }

  /// Floored division of big integers: quotient rounded toward −∞ and a remainder with the
  /// divisor's sign.
  static func floorDivide(_ a: BigInt, _ b: BigInt) -> (BigInt, BigInt) {
    var (q, r) = a.quotientAndRemainder(dividingBy: b)
    if !r.isZero && ((r.sign == .minus) != (b.sign == .minus)) {
      q -= 1
      r += b
    }
    return (q, r)
  }

  /// `a mod b`, the floored remainder `a − b·⌊a/b⌋`; `b` must not be zero.
  public static func floorMod(_ a: Rational, _ b: Rational) -> Rational {
    a - b * (a / b).floor
  }
}

extension Rational: Comparable {
  public static func < (a: Rational, b: Rational) -> Bool {
    if case .small(let an, let ad) = a.storage, case .small(let bn, let bd) = b.storage {
      let (x, o1) = an.multipliedReportingOverflow(by: bd)
      let (y, o2) = bn.multipliedReportingOverflow(by: ad)
      if !(o1 || o2) { return x < y }
    }
    return a.numerator * b.denominator < b.numerator * a.denominator
  }
}

extension Rational: ExpressibleByIntegerLiteral {
  public init(integerLiteral value: Int) { self.init(value) }
}
