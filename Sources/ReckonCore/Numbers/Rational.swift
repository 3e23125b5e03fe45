import CGMP

/// One GMP rational (`mpq_t`), owned: made by `init`, freed in `deinit`, and never changed
/// once a `Rational` holds it.
@usableFromInline
final class MPQ: @unchecked Sendable {
  let pointer: UnsafeMutablePointer<__mpq_struct>

  init() {
    pointer = .allocate(capacity: 1)
    __gmpq_init(pointer)
  }

  deinit {
    __gmpq_clear(pointer)
    pointer.deallocate()
  }

  var numerator: UnsafeMutablePointer<__mpz_struct> { reckon_mpq_numref(pointer) }
  var denominator: UnsafeMutablePointer<__mpz_struct> { reckon_mpq_denref(pointer) }
}

/// An exact rational number, always in lowest terms with a positive denominator.
///
/// Small values live in two `Int64`s and use overflow-reporting arithmetic (GMP is 1.1–2.5×
/// slower than a machine word for one- and two-word values); any operation that would
/// overflow goes to GMP's rationals (`mpq_t`), and a big result that fits again comes back to
/// the small form, so each value has one form and equal values compare and hash alike.
/// Nothing here traps.
public struct Rational: Sendable {
  @usableFromInline
  enum Storage: Sendable {
    case small(Int64, Int64)
    case big(MPQ)
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
  public init(_ value: BigInteger) {
    if let small = value.intValue {
      storage = .small(Int64(small), 1)
    } else {
      let q = MPQ()
      __gmpz_set(q.numerator, value.pointer)
      __gmpz_set_ui(q.denominator, 1)
      storage = .big(q)
    }
  }

  /// `numerator / denominator`, reduced. The denominator must not be zero.
  public init(numerator: BigInteger, denominator: BigInteger) {
    precondition(!denominator.isZero, "zero denominator")
    if let n = numerator.intValue, let d = denominator.intValue, let small = Rational.reducedSmall(Int64(n), Int64(d)) {
      self = small
      return
    }
    let q = MPQ()
    __gmpz_set(q.numerator, numerator.pointer)
    __gmpz_set(q.denominator, denominator.pointer)
    __gmpq_canonicalize(q.pointer)
    self = Rational.normalized(q)
  }

  /// `numerator / denominator` for machine integers, reduced. The denominator must not be zero.
  public init(_ numerator: Int64, _ denominator: Int64) {
    precondition(denominator != 0, "zero denominator")
    if let small = Rational.reducedSmall(numerator, denominator) {
      self = small
    } else {
      self.init(numerator: BigInteger(numerator), denominator: BigInteger(denominator))
    }
  }

  /// A canonical GMP rational in the small form when both parts fit.
  static func normalized(_ q: MPQ) -> Rational {
    if __gmpz_fits_slong_p(q.numerator) != 0 && __gmpz_fits_slong_p(q.denominator) != 0 {
      return Rational(storage: .small(Int64(__gmpz_get_si(q.numerator)), Int64(__gmpz_get_si(q.denominator))))
    }
    return Rational(storage: .big(q))
  }

  /// A new rational set by `body` (which leaves it canonical), in its one form.
  static func computed(_ body: (UnsafeMutablePointer<__mpq_struct>) -> Void) -> Rational {
    let q = MPQ()
    body(q.pointer)
    return normalized(q)
  }

  /// The value as a GMP rational, for GMP's arithmetic: the big form's own, or a new one.
  /// (Keep it in a variable while its pointer is used: a temporary may be freed at once.)
  var mpq: MPQ {
    switch storage {
    case .big(let q): return q
    case .small(let n, let d):
      let q = MPQ()
      __gmpz_set_si(q.numerator, Int(n))
      __gmpz_set_si(q.denominator, Int(d))
      return q
    }
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

  @inlinable
  static func gcd(_ a: UInt64, _ b: UInt64) -> UInt64 {
    var a = a
    var b = b
    while b != 0 { (a, b) = (b, a % b) }
    return a
  }

  // MARK: Parts

  /// The numerator, carrying the sign.
  public var numerator: BigInteger {
    switch storage {
    case .small(let n, _): BigInteger(n)
    case .big(let q): BigInteger { __gmpz_set($0, q.numerator) }
    }
  }

  /// The denominator, always positive.
  public var denominator: BigInteger {
    switch storage {
    case .small(_, let d): BigInteger(d)
    case .big(let q): BigInteger { __gmpz_set($0, q.denominator) }
    }
  }

  /// Whether the denominator is 1.
  public var isInteger: Bool {
    switch storage {
    case .small(_, let d): d == 1
    case .big(let q): __gmpz_cmp_ui(q.denominator, 1) == 0
    }
  }

  public var isZero: Bool {
    if case .small(0, _) = storage { return true }
    return false
  }

  public var isNegative: Bool {
    switch storage {
    case .small(let n, _): n < 0
    case .big(let q): reckon_mpq_sgn(q.pointer) < 0
    }
  }

  /// The value as an `Int` when it is an integer that fits (the small form holds every one).
  /// The numerator and denominator when both fit in 64 bits (no allocation), or nil.
  public var smallParts: (numerator: Int64, denominator: Int64)? {
    if case .small(let n, let d) = storage { return (n, d) }
    return nil
  }

  public var intValue: Int? {
    if case .small(let n, 1) = storage { return Int(exactly: n) }
    return nil
  }

  /// The larger bit width of numerator and denominator: a measure of size for limits.
  public var bitWidth: Int {
    let (n, d) = widths
    return max(n, d)
  }

  /// The bits of the numerator's and the denominator's magnitudes.
  var widths: (numerator: Int, denominator: Int) {
    switch storage {
    case .small(let n, let d): (64 - n.magnitude.leadingZeroBitCount, 64 - d.magnitude.leadingZeroBitCount)
    case .big(let q):
      (
        reckon_mpz_sgn(q.numerator) == 0 ? 0 : Int(__gmpz_sizeinbase(q.numerator, 2)),
        Int(__gmpz_sizeinbase(q.denominator, 2))
      )
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
    default:
      let q = x.mpq
      return computed { __gmpq_neg($0, q.pointer) }
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
    let (x, y) = (a.mpq, b.mpq)
    return computed { __gmpq_add($0, x.pointer, y.pointer) }
  }

  public static func - (a: Rational, b: Rational) -> Rational {
    if case .small = a.storage, case .small = b.storage { return a + -b }
    let (x, y) = (a.mpq, b.mpq)
    return computed { __gmpq_sub($0, x.pointer, y.pointer) }
  }

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
    let (x, y) = (a.mpq, b.mpq)
    return computed { __gmpq_mul($0, x.pointer, y.pointer) }
  }

  /// `a / b`; `b` must not be zero.
  public static func / (a: Rational, b: Rational) -> Rational {
    precondition(!b.isZero, "division by zero")
    if case .small = a.storage, case .small = b.storage { return a * b.reciprocal }
    let (x, y) = (a.mpq, b.mpq)
    return computed { __gmpq_div($0, x.pointer, y.pointer) }
  }

  /// `1 / self`; `self` must not be zero.
  public var reciprocal: Rational {
    precondition(!isZero, "reciprocal of zero")
    if case .small(let n, let d) = storage, n != .min {
      return n > 0 ? Rational(storage: .small(d, n)) : Rational(storage: .small(-d, -n))
    }
    let q = mpq
    return Rational.computed { __gmpq_inv($0, q.pointer) }
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
        let numerator = BigInteger(pn)
        return Rational.coprime(n < 0 && exponent % 2 == 1 ? -numerator : numerator, BigInteger(pd))
      }
    }
    return Rational.coprime(numerator.power(exponent), denominator.power(exponent))
  }

  /// `n / d` for parts already coprime with d > 0: no gcd needed.
  static func coprime(_ n: BigInteger, _ d: BigInteger) -> Rational {
    let q = MPQ()
    __gmpz_set(q.numerator, n.pointer)
    __gmpz_set(q.denominator, d.pointer)
    return normalized(q)
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
    if case .small(let n, let d) = storage {
      let q = n / d
      return Rational(storage: .small(q * d > n ? q - 1 : q, 1))
    }
    return Rational(numerator.floorDivided(by: denominator).quotient)
  }

  /// The least integer not below `self`.
  public var ceiling: Rational { -((-self).floor) }

  /// Rounded toward zero to an integer.
  public var truncated: Rational { isNegative ? ceiling : floor }

  /// Rounded to `places` decimal places (negative: to tens, hundreds…), halves away from zero.
  public func rounded(places: Int) -> Rational {
    let scale = Rational(BigInteger.power(10, abs(places)))
    let scaled = places >= 0 ? self * scale : self / scale
    let half = Rational(1, 2)
    let r = scaled.isNegative ? -((scaled.magnitude + half).floor) : (scaled + half).floor
    return places >= 0 ? r / scale : r * scale
  }

  /// Floored division of big integers: quotient rounded toward −∞ and a remainder with the
  /// divisor's sign.
  static func floorDivide(_ a: BigInteger, _ b: BigInteger) -> (BigInteger, BigInteger) {
    a.floorDivided(by: b)
  }

  /// `a mod b`, the floored remainder `a − b·⌊a/b⌋`; `b` must not be zero.
  public static func floorMod(_ a: Rational, _ b: Rational) -> Rational {
    a - b * (a / b).floor
  }
}

extension Rational: Comparable, Hashable {
  public static func == (a: Rational, b: Rational) -> Bool {
    switch (a.storage, b.storage) {
    case (.small(let an, let ad), .small(let bn, let bd)): an == bn && ad == bd
    case (.big(let x), .big(let y)): __gmpq_equal(x.pointer, y.pointer) != 0
    default: false  // each value has one form
    }
  }

  public func hash(into hasher: inout Hasher) {
    switch storage {
    case .small(let n, let d):
      hasher.combine(n)
      hasher.combine(d)
    case .big:
      hasher.combine(numerator)
      hasher.combine(denominator)
    }
  }

  public static func < (a: Rational, b: Rational) -> Bool {
    if case .small(let an, let ad) = a.storage, case .small(let bn, let bd) = b.storage {
      let (x, o1) = an.multipliedReportingOverflow(by: bd)
      let (y, o2) = bn.multipliedReportingOverflow(by: ad)
      if !(o1 || o2) { return x < y }
    }
    let (x, y) = (a.mpq, b.mpq)
    return withExtendedLifetime((x, y)) { __gmpq_cmp(x.pointer, y.pointer) < 0 }
  }
}

extension Rational: ExpressibleByIntegerLiteral {
  public init(integerLiteral value: Int) { self.init(value) }
}
