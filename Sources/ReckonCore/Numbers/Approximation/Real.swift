import CGMP
import Synchronization

/// A real number that Reckon cannot hold exactly (√2, ln 3, sin 1, a sum of them): the
/// recipe for it, which can be worked out to any precision.
///
/// `interval(_:)` evaluates the recipe with MPFR at a precision in bits and returns an
/// `Interval` certain to hold the exact value (each operation rounds outward). To print N
/// digits, `digits(_:)` starts at about N·log2(10) bits plus guard bits and doubles the
/// precision until both ends of the interval round to the same N digits (Ziv's strategy):
/// then every printed digit is known and the last one is correctly rounded. Past a bound it
/// gives the digits that are known and says how many.
///
/// A variable that holds an approximation holds its recipe, so `x = sqrt(2)` and then `x*x`
/// works out √2 again at whatever precision is asked. Recipes deeper than `maxDepth` (a
/// value built up over thousands of lines) are evaluated once at `fixedPrecision` bits and
/// kept as an interval, which bounds the digits they can give.
public final class Real: Sendable, Hashable, CustomStringConvertible {
  enum Kind: Sendable {
    case rational(Rational)
    case pi
    case e
    /// Known only to a fixed precision (a collapsed deep recipe).
    case fixed(Interval)
    case negate(Real)
    case add(Real, Real)
    case multiply(Real, Real)
    case reciprocal(Real)
    case power(Real, Int)
    /// The n-th root (n ≥ 2); of any sign when n is odd.
    case root(Real, Int)
    case function(Function, Real)
    case atan2(Real, Real)
  }

  /// The one-argument functions, each with the domain the evaluator checks before making it.
  enum Function: Sendable {
    case exp, ln, sin, cos, tan, asin, acos, atan, sinh, cosh, tanh, asinh, acosh, atanh, abs
    /// Γ(x) for x ≥ 2 (where it increases): n! = Γ(n + 1) past the exact-digit limit.
    case gamma
    /// ln Γ(x) for x ≥ 1 at whole numbers (binomials past the limit): an interval there is a
    /// point, and ln Γ increases from 2 on.
    case lngamma
  }

  let kind: Kind
  let depth: Int
  /// The widest exact number in the recipe, in bits (numerator and denominator), plus the
  /// bits of each integer power's exponent: how much precision the recipe may lose before
  /// any digit of it is known. (1 + 10^-5000)^(10^5000), which is about e, knows nothing
  /// below 16,610 bits, where 1 + 10^-5000 rounds to 1; the bound on precision grows with it.
  let leafBits: Int
  /// Whether the recipe holds Γ or ln Γ, which MPFR works out slowly at high precision for a
  /// small argument (Γ(3) takes 0.03 s at 4,096 bits, 4 s at 16,384): its precision is not
  /// raised for wide numbers (binom(10^5000, 5000) took 45 s that way).
  let isCostly: Bool
  private let cache = Mutex<(precision: Int, interval: Interval)?>(nil)

  /// Recipes deeper than this are evaluated and kept as an interval.
  static let maxDepth = 200
  /// The precision a deep recipe is kept at: about 1,200 digits.
  static let fixedPrecision = 4096

  private init(_ kind: Kind, depth: Int, leafBits: Int, isCostly: Bool) {
    self.kind = kind
    self.depth = depth
    self.leafBits = leafBits
    self.isCostly = isCostly
  }

  static func make(_ kind: Kind) -> Real {
    let children: [Real] =
      switch kind {
      case .rational, .pi, .e, .fixed: []
      case .negate(let a), .reciprocal(let a), .power(let a, _), .root(let a, _), .function(_, let a): [a]
      case .add(let a, let b), .multiply(let a, let b), .atan2(let a, let b): [a, b]
      }
    let depth = 1 + (children.map(\.depth).max() ?? 0)
    var leafBits = children.map(\.leafBits).max() ?? 0
    var isCostly = children.contains(where: \.isCostly)
    switch kind {
    case .rational(let r): leafBits = r.numerator.bitWidth + r.denominator.bitWidth
    case .power(_, let n): leafBits += Int.bitWidth - n.magnitude.leadingZeroBitCount
    case .function(.gamma, _), .function(.lngamma, _): isCostly = true
    default: break
    }
    let real = Real(kind, depth: depth, leafBits: min(leafBits, 1 << 30), isCostly: isCostly)
    if depth > maxDepth {
      return Real(.fixed(real.interval(fixedPrecision)), depth: 1, leafBits: 0, isCostly: false)
    }
    return real
  }

  /// The most precision worked out for a recipe whose digits are not known before:
  /// 4 times the precision first tried or 4,096 bits more, and for a recipe holding wide
  /// exact numbers twice their width more, up to `leafPrecisionLimit` (MPFR's exp and ln
  /// at 65,536 bits take milliseconds; at a million bits, seconds).
  func precisionCap(from start: Int) -> Int {
    max(4 * start, start + 4096, isCostly ? 0 : start + min(2 * leafBits, Real.leafPrecisionLimit))
  }

  /// How many bits beyond the first try the width of a recipe's exact numbers may add.
  public static let leafPrecisionLimit = 65_536

  // MARK: Making

  public static func rational(_ r: Rational) -> Real { make(.rational(r)) }

  /// A number known only to lie between `lo` and `hi` (a measured constant: its last digit
  /// give or take half a unit), kept at `fixedPrecision` bits: no digit past what the two
  /// ends share is ever shown as known.
  static func between(_ lo: Rational, _ hi: Rational) -> Real {
    let p = fixedPrecision
    return make(.fixed(Interval(Interval.exactly(lo, p).lo, Interval.exactly(hi, p).hi)))
  }
  public static let pi = make(.pi)
  public static let e = make(.e)

  public static prefix func - (a: Real) -> Real { make(.negate(a)) }
  public static func + (a: Real, b: Real) -> Real { make(.add(a, b)) }
  public static func - (a: Real, b: Real) -> Real { make(.add(a, make(.negate(b)))) }
  public static func * (a: Real, b: Real) -> Real { make(.multiply(a, b)) }
  /// `a / b`; the caller has made sure that `b` is not zero.
  public static func / (a: Real, b: Real) -> Real { make(.multiply(a, make(.reciprocal(b)))) }
  public func power(_ n: Int) -> Real { Real.make(.power(self, n)) }
  public func root(_ n: Int) -> Real { Real.make(.root(self, n)) }
  static func function(_ f: Function, _ a: Real) -> Real { make(.function(f, a)) }

  public var exp: Real { Real.function(.exp, self) }
  public var ln: Real { Real.function(.ln, self) }
  public var sin: Real { Real.function(.sin, self) }
  public var cos: Real { Real.function(.cos, self) }
  public var tan: Real { Real.function(.tan, self) }
  public var asin: Real { Real.function(.asin, self) }
  public var acos: Real { Real.function(.acos, self) }
  public var atan: Real { Real.function(.atan, self) }
  public var sinh: Real { Real.function(.sinh, self) }
  public var cosh: Real { Real.function(.cosh, self) }
  public var tanh: Real { Real.function(.tanh, self) }
  public var asinh: Real { Real.function(.asinh, self) }
  public var acosh: Real { Real.function(.acosh, self) }
  public var atanh: Real { Real.function(.atanh, self) }
  public var absolute: Real { Real.function(.abs, self) }
  /// Γ(self), for self ≥ 2.
  public var gamma: Real { Real.function(.gamma, self) }
  /// ln Γ(self), for whole self ≥ 1 or any self ≥ 2.
  public var lngamma: Real { Real.function(.lngamma, self) }
  public static func atan2(_ y: Real, _ x: Real) -> Real { make(.atan2(y, x)) }

  /// `self` to a real power, for `self` > 0: exp(b·ln a).
  public func power(_ b: Real) -> Real { (b * ln).exp }

  // MARK: Evaluating

  /// An interval of `precision` bits (at least) that holds the value.
  func interval(_ precision: Int) -> Interval {
    if let cached = cache.withLock({ $0 }), cached.precision >= precision { return cached.interval }
    let result = compute(precision)
    cache.withLock { $0 = (precision, result) }
    return result
  }

  private func compute(_ p: Int) -> Interval {
    switch kind {
    case .rational(let r):
      return .exactly(r, p)
    case .pi:
      return .bounds(p, { _ = mpfr_const_pi($0, $1) }, { _ = mpfr_const_pi($0, $1) })
    case .e:
      let e: Interval.Operation = { x, rounding in
        _ = mpfr_set_ui(x, 1, MPFR_RNDN)
        _ = mpfr_exp(x, x, rounding)
      }
      return .bounds(p, e, e)
    case .fixed(let i):
      return i
    case .negate(let a):
      return -a.interval(p)
    case .add(let a, let b):
      return .add(a.interval(p), b.interval(p), p)
    case .multiply(let a, let b):
      return .multiply(a.interval(p), b.interval(p), p)
    case .reciprocal(let a):
      return a.interval(p).reciprocal(p)
    case .power(let a, let n):
      return a.interval(p).power(n, p)
    case .root(let a, let n):
      var x = a.interval(p)
      if n % 2 == 0 {
        guard x.isBounded, x.hi.sign >= 0 else { return .unbounded }
        x = x.clampedBelow(.zero, p)
      }
      return x.increasing(p) { mpfr_rootn_ui($0, $1, UInt(n), $2) }
    case .function(let f, let a):
      // sin, cos and tan reduce their argument modulo 2π, and exp and its kin turn the
      // argument's absolute error into a relative one: a large argument needs as many more
      // bits as its integer part has (10^1000 has 3,322), or its enclosure is too wide.
      var q = p
      switch f {
      case .sin, .cos, .tan: q += a.magnitudeBits
      // Past |x| = 2^64 exp is beyond MPFR's exponents whatever the digits: no use
      // working the argument out further (Γ of a huge number at 131,000 bits took a minute).
      case .exp, .sinh, .cosh: q += min(a.magnitudeBits, 72)
      default: break
      }
      return Real.apply(f, a.interval(q), p)
    case .atan2(let y, let x):
      return Real.atan2(y.interval(p), x.interval(p), p)
    }
  }

  static func one(_ p: Int) -> MPFR { MPFR.make(p) { mpfr_set_ui($0, 1, MPFR_RNDN) } }

  private static func apply(_ f: Function, _ x: Interval, _ p: Int) -> Interval {
    guard x.isBounded else { return .unbounded }
    switch f {
    case .exp: return x.increasing(p, mpfr_exp)
    case .ln:
      guard x.isPositive else { return .unbounded }
      return x.increasing(p, mpfr_log)
    case .sin: return periodic(x, p, shift: false)
    case .cos: return periodic(x, p, shift: true)
    case .tan:
      // Between two poles (π/2 + kπ) tan increases; an interval across one is unbounded.
      guard x.lo.compare(x.hi) == 0 || extremum(of: x, p, shift: false) == nil else { return .unbounded }
      return x.increasing(p, mpfr_tan)
    case .asin: return domain(x, -1, 1, p)?.increasing(p, mpfr_asin) ?? .unbounded
    case .acos: return domain(x, -1, 1, p)?.decreasing(p, mpfr_acos) ?? .unbounded
    case .atan: return x.increasing(p, mpfr_atan)
    case .sinh: return x.increasing(p, mpfr_sinh)
    case .cosh:
      // Even, smallest at 0.
      let a = x.absolute(p)
      return a.increasing(p, mpfr_cosh)
    case .tanh: return x.increasing(p, mpfr_tanh)
    case .asinh: return x.increasing(p, mpfr_asinh)
    case .acosh:
      guard x.hi.compare(one(p)) >= 0 else { return .unbounded }
      return x.clampedBelow(.one, p).increasing(p, mpfr_acosh)
    case .atanh:
      guard x.lo.compare(MPFR.make(p) { mpfr_set_si($0, -1, MPFR_RNDN) }) > 0, x.hi.compare(one(p)) < 0 else {
        return .unbounded
      }
      return x.increasing(p, mpfr_atanh)
    case .abs: return x.absolute(p)
    case .gamma:
      guard x.lo.compare(MPFR.make(p) { mpfr_set_ui($0, 2, MPFR_RNDN) }) >= 0 else { return .unbounded }
      return x.increasing(p, mpfr_gamma)
    case .lngamma:
      // Increasing from 2 on; below it only a single point (a whole number) is bounded.
      guard x.lo.compare(MPFR.make(p) { mpfr_set_ui($0, 2, MPFR_RNDN) }) >= 0 || x.lo.compare(x.hi) == 0,
        x.lo.compare(one(p)) >= 0
      else { return .unbounded }
      return x.increasing(p, mpfr_lngamma)
    }
  }

  /// The interval clamped to [lo, hi] when it meets that domain; nil when it lies outside.
  private static func domain(_ x: Interval, _ lo: Int, _ hi: Int, _ p: Int) -> Interval? {
    let clamped = x.clampedBelow(Rational(lo), p).clampedAbove(Rational(hi), p)
    return clamped.lo.compare(clamped.hi) <= 0 ? clamped : nil
  }

  /// sin (or, shifted, cos) over an interval: the ends' values, and ±1 where an extremum
  /// (π/2 + kπ for sin, kπ for cos) may lie inside.
  private static func periodic(_ x: Interval, _ p: Int, shift: Bool) -> Interval {
    // Wider than a whole period (a huge argument known to few bits): all of [-1, 1].
    let width = MPFR.make(p) { _ = mpfr_sub($0, x.hi.pointer, x.lo.pointer, MPFR_RNDD) }
    if width.compare(MPFR.make(p) { _ = mpfr_set_ui($0, 7, MPFR_RNDN) }) >= 0 {
      return Interval(MPFR.make(p) { _ = mpfr_set_si($0, -1, MPFR_RNDN) }, one(p))
    }
    let f: (UnsafeMutablePointer<__mpfr_struct>, UnsafePointer<__mpfr_struct>, mpfr_rnd_t) -> Int32 =
      shift ? mpfr_cos : mpfr_sin
    var lows = [
      MPFR.make(p) { _ = f($0, x.lo.pointer, MPFR_RNDD) }, MPFR.make(p) { _ = f($0, x.hi.pointer, MPFR_RNDD) },
    ]
    var highs = [
      MPFR.make(p) { _ = f($0, x.lo.pointer, MPFR_RNDU) }, MPFR.make(p) { _ = f($0, x.hi.pointer, MPFR_RNDU) },
    ]
    // At a single point (an exact argument) MPFR's own value is the answer: no extremum can
    // lie inside, and looking for one needs π to as many bits as the argument has. sin's
    // extrema are at π/2 + kπ (shift false), cos's at kπ (shift true).
    if x.lo.compare(x.hi) != 0, let (first, count) = extremum(of: x, p, shift: shift) {
      // k, k+1, …: the extremum at k is (−1)^k for sin's π/2 + kπ and cos's kπ.
      for k in 0..<min(count, 2) {
        let value = MPFR.make(p) { _ = mpfr_set_si($0, first.isOddWhenAdded(k) ? -1 : 1, MPFR_RNDN) }
        lows.append(value)
        highs.append(value)
      }
    }
    return Interval(lows.min { $0.compare($1) < 0 }!, highs.max { $0.compare($1) < 0 }!)
  }

  /// Where the points π/2 + kπ (or, when `atMultiples`, kπ) may lie inside `x`: the first k
  /// (as an integer) and how many there may be (2 meaning "two or more"); nil when none can.
  private static func extremum(of x: Interval, _ p: Int, shift atMultiples: Bool) -> (first: BigInteger, count: Int)? {
    let pi = Real.pi.interval(p + 16)
    // t = (x − π/2)/π, or x/π: the extremum points are the integers t.
    var t = x
    if !atMultiples {
      let half = Interval.multiply(pi, .exactly(Rational(1, 2), p + 16), p + 16)
      t = .add(t, -half, p + 16)
    }
    t = .multiply(t, pi.reciprocal(p + 16), p + 16)
    guard t.isBounded else { return (0, 2) }
    let first = MPFR.make(t.lo.precision) { _ = mpfr_rint_ceil($0, t.lo.pointer, MPFR_RNDU) }
    let last = MPFR.make(t.hi.precision) { _ = mpfr_rint_floor($0, t.hi.pointer, MPFR_RNDD) }
    guard first.compare(last) <= 0 else { return nil }
    let k = first.rational.numerator
    return (k, first.compare(last) == 0 ? 1 : 2)
  }

  /// atan2(y, x), the angle of the point (x, y), in (−π, π].
  private static func atan2(_ y: Interval, _ x: Interval, _ p: Int) -> Interval {
    guard x.isBounded && y.isBounded else { return .unbounded }
    let pi = Real.pi.interval(p)
    if x.isPositive { return Interval.multiply(y, x.reciprocal(p), p).increasing(p, mpfr_atan) }
    if y.isPositive {
      // π/2 − atan(x/y)
      let a = Interval.multiply(x, y.reciprocal(p), p).increasing(p, mpfr_atan)
      return .add(Interval.multiply(pi, .exactly(Rational(1, 2), p), p), -a, p)
    }
    if y.isNegative {
      let a = Interval.multiply(x, y.reciprocal(p), p).increasing(p, mpfr_atan)
      return .add(-Interval.multiply(pi, .exactly(Rational(1, 2), p), p), -a, p)
    }
    // x < 0 with y around 0 crosses the branch cut at ±π: not bounded at this precision.
    return .unbounded
  }

  // MARK: Deciding

  /// Works out enclosures at increasing precision from `bits` (doubling, up to `cap`) until
  /// `decide` answers; nil when it never does.
  func decide<T>(from bits: Int, cap: Int? = nil, _ decide: (Interval) -> T?) -> T? {
    var p = max(bits, 64)
    let cap = cap ?? precisionCap(from: p)
    while true {
      let i = interval(p)
      if i.isBounded, let answer = decide(i) { return answer }
      if p >= cap { return nil }
      p = min(2 * p, cap)
    }
  }

  /// About log2 |value| when it is above 1 (0 otherwise), from a 64-bit enclosure, at most
  /// 2^17 + 64: the extra precision a large argument needs.
  var magnitudeBits: Int {
    min(max(0, magnitudeExponent ?? 0), (1 << 17) + 64)
  }

  /// Whether |value| may be 2^`bits` or more (from a 64-bit enclosure): sin, cos and tan
  /// refuse such arguments, whose reduction modulo 2π would need π to that many bits.
  public func mayExceed(bits: Int) -> Bool {
    // The first bounded enclosure (tan near a pole needs more than 64 bits to have one); one
    // that never is bounded is left to the evaluation to report.
    guard let exponent = magnitudeExponent else { return false }
    return exponent > bits
  }

  /// The binary exponent of the first bounded enclosure's larger end (|value| < 2^it), or
  /// nil when no enclosure within the precision bound is bounded.
  var magnitudeExponent: Int? {
    decide(from: 64) { i -> Int? in
      let bound = i.magnitudeBound
      return bound.isZero ? Int.min : Int(mpfr_get_exp(bound.pointer))
    }
  }

  /// Whether the value is beyond MPFR's exponent range (about 2^(4.6·10^18)): an enclosure
  /// that runs to infinity on a side the value certainly lies on.
  public var overflows: Bool {
    let i = interval(64)
    guard !i.isBounded else { return false }
    func huge(_ x: MPFR) -> Bool {
      x.isInfinite || (x.isFinite && !x.isZero && mpfr_get_exp(x.pointer) >= mpfr_get_emax() - 1)
    }
    return (i.lo.sign > 0 && huge(i.lo)) || (i.hi.sign < 0 && huge(i.hi))
  }

  /// Whether the value is too close to zero for MPFR's exponents (below about 2^(-4.6·10^18))
  /// yet not known to be zero: an enclosure from 0 to the smallest numbers MPFR has.
  public var underflows: Bool {
    let i = interval(64)
    guard i.isBounded, i.containsZero else { return false }
    let bound = i.magnitudeBound
    return !bound.isZero && mpfr_get_exp(bound.pointer) <= mpfr_get_emin() + 1
  }

  /// The sign, when it can be told: -1 or 1 (an approximation is never shown to be zero).
  public var sign: Int? {
    decide(from: 64) { i in i.isPositive ? 1 : i.isNegative ? -1 : nil }
  }

  /// What `digits(_:)` found.
  public enum Digits: Sendable, Equatable {
    /// The first `digits.count` significant digits (the last rounded to nearest), the value
    /// being ±0.d₁d₂… × 10^exponent. Fewer than asked when no more could be known.
    case digits(String, exponent: Int, negative: Bool)
    /// Zero to within 10^exponent: its sign and first digit could not be found.
    case nearZero(exponent: Int)
    /// Nothing could be worked out (too large even for MPFR, say).
    case unknown
  }

  /// `n` significant digits (in `base`, 2 to 36; decimal unless asked), each certain and the
  /// last correctly rounded; fewer when no more can be known within the precision bound.
  public func digits(_ n: Int, base: Int = 10) -> Digits {
    let bitsPerDigit = base == 10 ? 3.321928094887362 : Double(Int.bitWidth - (base - 1).leadingZeroBitCount)
    let start = Int(Double(n) * bitsPerDigit) + 32
    let cap = precisionCap(from: start)
    if let found = decide(
      from: start, cap: cap,
      { i -> Digits? in
        guard !i.containsZero else { return nil }
        let (a, b) = (i.lo.decimal(n, MPFR_RNDN, base: base), i.hi.decimal(n, MPFR_RNDN, base: base))
        return a == b ? .digits(a.digits, exponent: a.exponent, negative: i.isNegative) : nil
      })
    {
      return found
    }
    // Past the bound: as many digits as the two ends share, if any.
    let i = interval(cap)
    guard i.isBounded else { return .unknown }
    if i.containsZero {
      // Zero to within a bound below 1 is worth saying; an enclosure as wide as [-1, 1] says
      // nothing at all.
      let bound = i.magnitudeBound
      guard bound.isFinite, !bound.isZero else { return .nearZero(exponent: 0) }
      let exponent = bound.decimal(1, MPFR_RNDU, base: base).exponent
      return exponent <= 0 ? .nearZero(exponent: exponent) : .unknown
    }
    for k in stride(from: n - 1, through: 1, by: -1) {
      let (a, b) = (i.lo.decimal(k, MPFR_RNDN, base: base), i.hi.decimal(k, MPFR_RNDN, base: base))
      if a == b { return .digits(a.digits, exponent: a.exponent, negative: i.isNegative) }
    }
    return .unknown
  }

  /// What rounding an approximation to an exact value found.
  public enum Rounded: Sendable, Equatable {
    case value(Rational)
    /// The value lies on, or too close to, a boundary of the rounding for any enclosure.
    case undecided
    /// The value is 2^maxBits or more: its integer part would pass the exact-digit limit.
    case tooLarge
  }

  /// The value rounded by `round` (a rule for exact rationals: floor, to at most 1,000
  /// places…), when both ends of an enclosure round alike.
  public func exactly(maxBits: Int, _ round: (Rational) -> Rational) -> Rounded {
    // Enough bits for the integer part and some: the magnitude from a first enclosure that
    // tells it, one within 2^maxBits or one wholly beyond it. (At 64 bits atanh(1 - 1e-30)
    // has no bounded enclosure, its argument rounding up to 1; and cosh(10^30 + √5 - 10^30)
    // has one that reaches past e^(10^11), the sum being known only to within ±2^37.)
    func exponent(_ x: MPFR) -> Int { Int(mpfr_get_exp(x.pointer)) }
    guard
      let first = decide(
        from: 64,
        { i -> Interval? in
          let bound = i.magnitudeBound
          if bound.isZero || exponent(bound) <= maxBits { return i }
          return !i.containsZero && exponent(i.isPositive ? i.lo : i.hi) > maxBits ? i : nil
        })
    else { return .undecided }
    let bound = first.magnitudeBound
    if !bound.isZero && exponent(bound) > maxBits { return .tooLarge }
    let magnitude = bound.isZero ? 0 : max(0, exponent(bound))
    let found = decide(from: magnitude + 64, cap: magnitude + 64 + 16_384) { i -> Rational? in
      let (a, b) = (round(Real.rational(i.lo)), round(Real.rational(i.hi)))
      return a == b ? a : nil
    }
    return found.map { .value($0) } ?? .undecided
  }

  /// The exact value of an end of an interval; an end too close to zero to matter for
  /// rounding to 1,000 places (below 2^-100,000) stands in as ±2^-100,000, so that its exact
  /// value (with a denominator of up to 2^4.6e18) is never made.
  private static func rational(_ x: MPFR) -> Rational {
    if !x.isZero && mpfr_get_exp(x.pointer) < -100_000 {
      let tiny = Rational(numerator: 1, denominator: BigInteger.one << 100_000)
      return x.sign < 0 ? -tiny : tiny
    }
    return x.rational
  }

  // MARK: Same recipes

  /// Whether `other` is the same recipe, node by node (the same numbers, constants and
  /// operations): then the two are the same number, whatever digits can be worked out, so
  /// that `9^9^9 - 9^9^9` is 0 and `x == x` true, where no enclosure could tell. Gives up
  /// (false) after 10,000 nodes.
  public func isSameRecipe(as other: Real) -> Bool {
    var budget = 10_000
    return Real.same(self, other, &budget)
  }

  /// Whether `other` is the negation of this recipe (`x` and `-x`).
  public func isNegation(of other: Real) -> Bool {
    if case .negate(let a) = kind, a.isSameRecipe(as: other) { return true }
    if case .negate(let b) = other.kind, b.isSameRecipe(as: self) { return true }
    return false
  }

  private static func same(_ a: Real, _ b: Real, _ budget: inout Int) -> Bool {
    if a === b { return true }
    budget -= 1
    guard budget >= 0, a.depth == b.depth, a.leafBits == b.leafBits else { return false }
    switch (a.kind, b.kind) {
    case (.rational(let x), .rational(let y)): return x == y
    case (.pi, .pi), (.e, .e): return true
    case (.negate(let x), .negate(let y)), (.reciprocal(let x), .reciprocal(let y)):
      return same(x, y, &budget)
    case (.add(let x1, let x2), .add(let y1, let y2)), (.multiply(let x1, let x2), .multiply(let y1, let y2)),
      (.atan2(let x1, let x2), .atan2(let y1, let y2)):
      return same(x1, y1, &budget) && same(x2, y2, &budget)
    case (.power(let x, let n), .power(let y, let m)), (.root(let x, let n), .root(let y, let m)):
      return n == m && same(x, y, &budget)
    case (.function(let f, let x), .function(let g, let y)):
      return f == g && same(x, y, &budget)
    default:
      // A fixed interval is the same only as itself (above).
      return false
    }
  }

  public static func == (a: Real, b: Real) -> Bool { a === b }
  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

  public var description: String {
    switch digits(17) {
    case .digits(let d, let e, let negative): (negative ? "-" : "") + "0.\(d)e\(e)"
    case .nearZero(let e): "~0 (<1e\(e))"
    case .unknown: "?"
    }
  }
}

extension BigInteger {
  /// Whether `self + k` is odd.
  fileprivate func isOddWhenAdded(_ k: Int) -> Bool { (self + BigInteger(k)).isOdd }
}
