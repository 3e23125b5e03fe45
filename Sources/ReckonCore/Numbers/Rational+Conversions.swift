import CGMP

extension Rational {
  /// The exact value of a finite `Double` (every finite double is a dyadic rational).
  public init?(exactly value: Double) {
    guard value.isFinite else { return nil }
    if let small = Int64(exactly: value) {
      self.init(storage: .small(small, 1))
      return
    }
    self = Rational.computed { __gmpq_set_d($0, value) }
  }

  /// The nearest `Double`, rounded correctly (infinite when out of range, 0 when below it).
  public var doubleValue: Double {
    if case .small(let n, let d) = storage, n.magnitude < (1 << 53), d < (1 << 53) {
      return Double(n) / Double(d)
    }
    let q = mpq
    return withExtendedLifetime(q) {
      var x = __mpfr_struct()
      mpfr_init2(&x, 53)
      defer { mpfr_clear(&x) }
      mpfr_set_q(&x, q.pointer, MPFR_RNDN)
      return mpfr_get_d(&x, MPFR_RNDN)
    }
  }

  /// The value as `m · 2^e` with `m` a Double near 1, for values far beyond a Double's range:
  /// only the top bits of numerator and denominator are used, so it is fast at any size.
  public var binaryParts: (mantissa: Double, exponent: Int) {
    let (mn, en) = numerator.binaryParts
    let (md, ed) = denominator.binaryParts
    return (mn / md, en - ed)
  }

  /// The exact `n`-th root when numerator and denominator are both perfect `n`-th powers.
  /// Negative values have a real root only for odd `n`.
  public func exactRoot(_ n: Int) -> Rational? {
    precondition(n >= 1)
    if n == 1 { return self }
    guard let num = numerator.exactRoot(n), let den = denominator.exactRoot(n) else { return nil }
    return Rational.coprime(num, den)
  }
}
