/// Amounts of money: exact rationals rounded to the cent, half away from zero, once.
public enum Money {
  /// Amounts of money are below 10^15 (a thousand trillion) of a currency's units, in cents.
  /// Past it nothing is worked out: `tip 10^999999` took 9.5 s and printed 11 MB. Every
  /// amount, tip, total and share then fits in 64 bits of cents.
  public static let limitCents = BigInteger(100_000_000_000_000_000)
  /// 2^50 is above 10^15: an approximation as large as that is past the limit.
  public static let limitBits = 50

  /// Whether `amount`, rounded to the cent, is below the limit in size.
  public static func isWithinLimit(_ amount: Rational) -> Bool {
    amount.magnitude < Rational(1_000_000_000_000_000) && cents(amount).magnitude < limitCents
  }

  /// `value` rounded to a whole number of cents (of the currency's minor unit: `decimals`
  /// places, 2 for most, 0 for the yen, 3 for the dinar), as that number.
  public static func cents(_ value: Rational, decimals: Int = 2) -> BigInteger {
    (value.rounded(places: decimals) * Rational(BigInteger(10).power(decimals))).numerator
  }

  /// A number of cents as text with exactly `decimals` decimals: `1234` → `12.34`, `-5` →
  /// `-0.05`; with 0, `1234` → `1234`.
  public static func format(cents: BigInteger, decimals: Int = 2) -> String {
    let sign = cents.isNegative ? "-" : ""
    let digits = cents.magnitude.string()
    guard decimals > 0 else { return sign + digits }
    let padded =
      digits.count <= decimals ? String(repeating: "0", count: decimals + 1 - digits.count) + digits : digits
    let cut = padded.index(padded.endIndex, offsetBy: -decimals)
    return sign + padded[..<cut] + "." + padded[cut...]
  }

  /// An amount rounded to the cent, as text.
  public static func format(_ value: Rational, decimals: Int = 2) -> String {
    format(cents: cents(value, decimals: decimals), decimals: decimals)
  }

  /// A number of cents as an exact value.
  public static func value(cents: BigInteger, decimals: Int = 2) -> Rational {
    Rational(numerator: cents, denominator: BigInteger(10).power(decimals))
  }

  /// The currency of an amount (`tip 84.50 € 18%`): its code, its minor unit's decimals and
  /// the unit its results are given in; `plain` for a plain number (two decimals, no code).
  public struct Currency: Sendable, Hashable {
    public var code: String?
    public var decimals: Int
    public var unit: Unit

    public init(code: String?, decimals: Int, unit: Unit) {
      self.code = code
      self.decimals = decimals
      self.unit = unit
    }

    public static let plain = Currency(code: nil, decimals: 2, unit: .none)

    /// A number of its minor units as text: `12.34`, `12.34 EUR`, `1235 JPY`.
    public func format(cents: BigInteger) -> String {
      Money.format(cents: cents, decimals: decimals) + (code.map { " " + $0 } ?? "")
    }

    /// An amount in it: `.quantity(12.34 EUR)`, or a plain number.
    public func value(cents: BigInteger) -> Value {
      .quantity(Quantity(.exact(Money.value(cents: cents, decimals: decimals)), unit))
    }
  }
}
