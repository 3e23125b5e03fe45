/// A calculator value: exact when it can be, an approximation (marked ≈ when printed) when
/// an irrational function or constant was involved.
public enum Value: Sendable, Hashable {
  case exact(Rational)
  case approx(Double)

  /// The value as a `Double` (for approximate arithmetic).
  public var doubleValue: Double {
    switch self {
    case .exact(let r): r.doubleValue
    case .approx(let d): d
    }
  }

  /// The exact value, if this is one.
  public var exact: Rational? {
    if case .exact(let r) = self { return r }
    return nil
  }

  /// The exact value, or the exact binary value of a finite approximation.
  public var rational: Rational? {
    switch self {
    case .exact(let r): r
    case .approx(let d): Rational(exactly: d)
    }
  }

  public var isExact: Bool { exact != nil }

  public var isNegative: Bool {
    switch self {
    case .exact(let r): r.isNegative
    case .approx(let d): d < 0
    }
  }

  public var isZero: Bool {
    switch self {
    case .exact(let r): r.isZero
    case .approx(let d): d == 0
    }
  }
}
