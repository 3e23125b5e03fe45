/// A number, as exact as mathematics allows (the number of a `Quantity`, which a `Value`
/// holds):
///
/// - `exact`: a rational number (`0.3`, `1/3`, `100!`).
/// - `multiple`: a rational times a power of π and of e (`2π`, `π²/6`, `e³`), still exact:
///   π cancels (`(3π)/(2π)` is 1.5), and sin, cos and tan of a rational multiple of π are
///   exact where the result is rational (`sin(π)` is 0, `cos(π/3)` is 0.5).
/// - `approx`: a `Real`, a recipe worked out to as many digits as are asked for, each of them
///   certain (printed with `≈`).
public enum Number: Sendable, Hashable {
  case exact(Rational)
  /// r·π^pi·e^e with r ≠ 0 and the powers not both 0 (`Number.product` keeps it so).
  case multiple(Rational, Constants)
  case approx(Real)

  /// Powers of the two constants Reckon keeps symbolically.
  public struct Constants: Sendable, Hashable {
    public var pi: Int
    public var e: Int

    public init(pi: Int = 0, e: Int = 0) {
      self.pi = pi
      self.e = e
    }

    public var isOne: Bool { pi == 0 && e == 0 }

    /// The largest power kept symbolically; past it a value is approximated.
    static let maxPower = 10_000
    var isSmall: Bool { Swift.abs(pi) <= Constants.maxPower && Swift.abs(e) <= Constants.maxPower }
  }

  /// r·π^pi·e^e in its one form: exact when the powers are 0 (or r is 0), approximate when
  /// they are too large to keep.
  public static func product(_ r: Rational, _ c: Constants) -> Number {
    if r.isZero || c.isOne { return .exact(r) }
    guard c.isSmall else { return .approx(Number.real(r, c)) }
    return .multiple(r, c)
  }

  public static let pi = Number.product(.one, Constants(pi: 1))
  public static let e = Number.product(.one, Constants(e: 1))

  static func real(_ r: Rational, _ c: Constants) -> Real {
    var x = Real.rational(r)
    if c.pi != 0 { x = x * Real.pi.power(c.pi) }
    if c.e != 0 { x = x * Real.e.power(c.e) }
    return x
  }

  /// The number as a recipe for its digits.
  public var real: Real {
    switch self {
    case .exact(let r): Real.rational(r)
    case .multiple(let r, let c): Number.real(r, c)
    case .approx(let x): x
    }
  }

  /// The exact value, if this is a rational.
  public var exact: Rational? {
    if case .exact(let r) = self { return r }
    return nil
  }

  public var isExact: Bool { exact != nil }

  /// The value as a rational and its constants, when it is exact (rational or a multiple).
  var symbolic: (Rational, Constants)? {
    switch self {
    case .exact(let r): (r, Constants())
    case .multiple(let r, let c): (r, c)
    case .approx: nil
    }
  }

  /// -1, 0 or 1; nil for an approximation whose sign cannot be told (one that may be 0).
  public var sign: Int? {
    switch self {
    case .exact(let r): r.isZero ? 0 : r.isNegative ? -1 : 1
    case .multiple(let r, _): r.isNegative ? -1 : 1  // π and e are positive
    case .approx(let x): x.sign
    }
  }

  public var isNegative: Bool { sign == -1 }

  /// Exactly zero (an approximation never is).
  public var isZero: Bool { exact?.isZero == true }
}
