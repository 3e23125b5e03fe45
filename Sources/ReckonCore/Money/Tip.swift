/// A tip on a bill: everything in cents, so that amount + tip = total exactly as shown.
public struct Tip: Sendable, Hashable {
  /// The bill, rounded to the cent.
  public let amountCents: BigInteger
  /// The percentage asked for (15 means 15%).
  public let percent: Rational
  public let tipCents: BigInteger
  public let totalCents: BigInteger
  /// The decimals of the currency's minor unit (2: cents).
  public let decimals: Int

  /// The tip on `amount` at `percent`%: tip = amount·p/100 rounded to the cent, once.
  public init(amount: Rational, percent: Rational, decimals: Int = 2) {
    self.amountCents = Money.cents(amount, decimals: decimals)
    self.percent = percent
    self.tipCents = Money.cents(amount * percent / 100, decimals: decimals)
    self.totalCents = amountCents + tipCents
    self.decimals = decimals
  }

  init(amountCents: BigInteger, percent: Rational, tipCents: BigInteger, decimals: Int) {
    self.amountCents = amountCents
    self.percent = percent
    self.tipCents = tipCents
    self.totalCents = amountCents + tipCents
    self.decimals = decimals
  }

  /// The same tip raised so the total is a whole unit (rounded up), with the percentage that
  /// works out to.
  public var roundedUp: Tip {
    let unit = BigInteger(10).power(decimals)
    let (units, remainder) = totalCents.quotientAndRemainder(dividingBy: unit)
    let total = remainder.isZero ? totalCents : (units + (totalCents.isNegative ? 0 : 1)) * unit
    let tip = total - amountCents
    let effective =
      amountCents.isZero ? percent : Rational(numerator: tip * 100, denominator: amountCents)
    return Tip(amountCents: amountCents, percent: effective, tipCents: tip, decimals: decimals)
  }
}
