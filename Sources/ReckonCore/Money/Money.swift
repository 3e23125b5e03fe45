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

  /// `value` rounded to a whole number of cents, as that number of cents.
  public static func cents(_ value: Rational) -> BigInteger {
    (value.rounded(places: 2) * 100).numerator
  }

  /// A number of cents as text with exactly two decimals: `1234` → `12.34`, `-5` → `-0.05`.
  public static func format(cents: BigInteger) -> String {
    let sign = cents.isNegative ? "-" : ""
    let digits = cents.magnitude.string()
    let padded = digits.count < 3 ? String(repeating: "0", count: 3 - digits.count) + digits : digits
    let cut = padded.index(padded.endIndex, offsetBy: -2)
    return sign + padded[..<cut] + "." + padded[cut...]
  }

  /// An amount rounded to the cent, as text.
  public static func format(_ value: Rational) -> String { format(cents: cents(value)) }

  /// A number of cents as an exact value.
  public static func value(cents: BigInteger) -> Rational {
    Rational(numerator: cents, denominator: 100)
  }
}
