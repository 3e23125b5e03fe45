import CGMP

/// Two MPFR numbers that hold a real value between them: `lo ≤ x ≤ hi`. Every operation
/// rounds its lower end down and its upper end up, so the result holds the exact result of
/// the operation on any values of the operands' intervals. An interval that could not be
/// bounded (a division by an interval around zero, a logarithm of one that reaches zero) is
/// `unbounded`: a higher precision may bound it.
struct Interval: Sendable {
  let lo: MPFR
  let hi: MPFR

  init(_ lo: MPFR, _ hi: MPFR) {
    if lo.isNaN || hi.isNaN {
      (self.lo, self.hi) = (MPFR.infinity(-1), MPFR.infinity(1))
    } else {
      (self.lo, self.hi) = (lo, hi)
    }
  }

  static var unbounded: Interval { Interval(MPFR.infinity(-1), MPFR.infinity(1)) }

  var isBounded: Bool { lo.isFinite && hi.isFinite }
  /// Whether zero may be the value.
  var containsZero: Bool { lo.sign <= 0 && hi.sign >= 0 }
  /// Whether the value is certainly positive, or negative.
  var isPositive: Bool { lo.sign > 0 }
  var isNegative: Bool { hi.sign < 0 }

  // MARK: Building

  typealias Operation = (UnsafeMutablePointer<__mpfr_struct>, mpfr_rnd_t) -> Void

  /// `f` at both ends: the lower rounded down, the upper rounded up.
  static func bounds(_ p: Int, _ lower: Operation, _ upper: Operation) -> Interval {
    Interval(MPFR.make(p) { lower($0, MPFR_RNDD) }, MPFR.make(p) { upper($0, MPFR_RNDU) })
  }

  static func exactly(_ r: Rational, _ p: Int) -> Interval {
    Interval(MPFR.rational(r, p, MPFR_RNDD), MPFR.rational(r, p, MPFR_RNDU))
  }

  /// An increasing function applied to each end.
  func increasing(
    _ p: Int, _ f: (UnsafeMutablePointer<__mpfr_struct>, UnsafePointer<__mpfr_struct>, mpfr_rnd_t) -> Int32
  ) -> Interval {
    guard isBounded else { return .unbounded }
    return Interval.bounds(p, { _ = f($0, lo.pointer, $1) }, { _ = f($0, hi.pointer, $1) })
  }

  /// A decreasing function applied to each end.
  func decreasing(
    _ p: Int, _ f: (UnsafeMutablePointer<__mpfr_struct>, UnsafePointer<__mpfr_struct>, mpfr_rnd_t) -> Int32
  ) -> Interval {
    guard isBounded else { return .unbounded }
    return Interval.bounds(p, { _ = f($0, hi.pointer, $1) }, { _ = f($0, lo.pointer, $1) })
  }

  /// The interval with its lower end raised to at least `floor` (a function's domain).
  func clampedBelow(_ floor: Rational, _ p: Int) -> Interval {
    let f = MPFR.rational(floor, p, MPFR_RNDD)
    return lo.compare(f) < 0 ? Interval(f, hi) : self
  }

  /// The interval with its upper end lowered to at most `ceiling`.
  func clampedAbove(_ ceiling: Rational, _ p: Int) -> Interval {
    let c = MPFR.rational(ceiling, p, MPFR_RNDU)
    return hi.compare(c) > 0 ? Interval(lo, c) : self
  }

  // MARK: Arithmetic

  static prefix func - (x: Interval) -> Interval {
    Interval(
      MPFR.make(x.hi.precision) { mpfr_neg($0, x.hi.pointer, MPFR_RNDD) },
      MPFR.make(x.lo.precision) { mpfr_neg($0, x.lo.pointer, MPFR_RNDU) })
  }

  static func add(_ a: Interval, _ b: Interval, _ p: Int) -> Interval {
    guard a.isBounded && b.isBounded else { return .unbounded }
    return bounds(
      p, { _ = mpfr_add($0, a.lo.pointer, b.lo.pointer, $1) }, { _ = mpfr_add($0, a.hi.pointer, b.hi.pointer, $1) })
  }

  static func multiply(_ a: Interval, _ b: Interval, _ p: Int) -> Interval {
    guard a.isBounded && b.isBounded else { return .unbounded }
    let pairs = [(a.lo, b.lo), (a.lo, b.hi), (a.hi, b.lo), (a.hi, b.hi)]
    let downs = pairs.map { x, y in MPFR.make(p) { _ = mpfr_mul($0, x.pointer, y.pointer, MPFR_RNDD) } }
    let ups = pairs.map { x, y in MPFR.make(p) { _ = mpfr_mul($0, x.pointer, y.pointer, MPFR_RNDU) } }
    return Interval(downs.min { $0.compare($1) < 0 }!, ups.max { $0.compare($1) < 0 }!)
  }

  /// 1/x; an interval that runs to infinity on one side of zero (an overflow) has a
  /// reciprocal between 0 and the other end's.
  func reciprocal(_ p: Int) -> Interval {
    guard !lo.isNaN, !hi.isNaN, !containsZero else { return .unbounded }
    return Interval.bounds(
      p, { _ = mpfr_ui_div($0, 1, hi.pointer, $1) }, { _ = mpfr_ui_div($0, 1, lo.pointer, $1) })
  }

  /// x^n for an integer n (any: Int.min too, whose magnitude is no Int).
  func power(_ n: Int, _ p: Int) -> Interval {
    guard isBounded else { return .unbounded }
    if n == 0 { return Interval.exactly(.one, p) }
    if n < 0 { return power(n.magnitude, p).reciprocal(p) }
    return power(n.magnitude, p)
  }

  private func power(_ n: UInt, _ p: Int) -> Interval {
    func pow(_ x: MPFR, _ rounding: mpfr_rnd_t) -> MPFR { MPFR.make(p) { _ = mpfr_pow_ui($0, x.pointer, n, rounding) } }
    if n % 2 == 1 || lo.sign >= 0 { return Interval(pow(lo, MPFR_RNDD), pow(hi, MPFR_RNDU)) }
    if hi.sign <= 0 { return Interval(pow(hi, MPFR_RNDD), pow(lo, MPFR_RNDU)) }
    // Around zero, an even power: from 0 to the larger end's power.
    let (a, b) = (pow(lo, MPFR_RNDU), pow(hi, MPFR_RNDU))
    return Interval(MPFR.make(p) { mpfr_set_zero($0, 1) }, a.compare(b) > 0 ? a : b)
  }

  /// The larger magnitude of the ends: |x| ≤ this.
  var magnitudeBound: MPFR {
    let a = MPFR.make(lo.precision) { _ = mpfr_abs($0, lo.pointer, MPFR_RNDU) }
    let b = MPFR.make(hi.precision) { _ = mpfr_abs($0, hi.pointer, MPFR_RNDU) }
    return a.compare(b) > 0 ? a : b
  }

  /// |x|.
  func absolute(_ p: Int) -> Interval {
    if lo.sign >= 0 { return self }
    if hi.sign <= 0 { return -self }
    return Interval(MPFR.make(p) { mpfr_set_zero($0, 1) }, magnitudeBound)
  }
}
